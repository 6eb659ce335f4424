import Aggregator
import AggregatorTestSupport
import Foundation

/// A reader app's sync against `aggr serve`, timed as a whole and weighed on the wire.
///
/// Each runs gzip and identity:
/// - Google Reader as FreshRSS clients do it: a first sync of 10,000 items (their ids in
///   one call, then their contents 250 at a time), then an incremental one after `aggr
///   import` added 100 items beside the running server (the ids stored since the last sync,
///   their contents, and the unread ids);
/// - Fever as Reeder does it: every item by `since_id`, 50 a call.
struct ReaderSyncBench {
    var run: BenchRun
    var base: String
    /// `Authorization: GoogleLogin auth=…`.
    var header: String
    var database: String
    var config: String
    var items = 10_000
    var batch = 250
    var added = 100
    var feverItems = 10_000

    func measure(directory: String) throws {
        print("   reader app sync (\(items) items: ids, then contents \(batch) at a time; then \(added) new items):")
        for encoding in ["gzip", "identity"] {
            let first = try firstSync(encoding: encoding, directory: directory)
            let later = try incrementalSync(encoding: encoding, directory: directory)
            print(
                "     " + encoding.padding(toLength: 9, withPad: " ", startingAt: 0)
                    + String(
                        format: "first sync %6.2f s, %7.1f KB in %d requests; incremental (%d new) %5.1f ms, %6.1f KB",
                        first.seconds, Double(first.bytes) / 1_024, first.requests, later.found, later.seconds * 1_000,
                        Double(later.bytes) / 1_024))
        }
        for encoding in ["gzip", "identity"] {
            let fever = try feverSync(encoding: encoding, directory: directory)
            print(
                "     Fever " + encoding.padding(toLength: 9, withPad: " ", startingAt: 0)
                    + String(
                        format: "%d items by since_id in %d calls: %6.2f s, %7.1f KB", fever.items, fever.requests, fever.seconds,
                        Double(fever.bytes) / 1_024))
        }
    }

    /// One request's time and body bytes as sent (compressed when gzip was asked for).
    func request(
        _ arguments: [String], encoding: String, directory: String, auth: Bool = true
    ) throws -> (
        seconds: Double, bytes: Int, body: String
    ) {
        let file = "\(directory)/sync-body"
        let text = try ToolOutput.run(
            "/usr/bin/curl",
            [
                "-s", "-o", file, "-w", "%{time_total} %{size_download}", "-H", auth ? header : "X-None: 1", "-H",
                "Accept-Encoding: \(encoding)",
            ]
                + arguments
        )
        .text
        let parts = text.split(separator: " ")
        guard parts.count == 2, let seconds = Double(parts[0]), let bytes = Int(parts[1]) else { throw BenchFailure("curl said \(text)") }
        let raw = try Data(contentsOf: URL(fileURLWithPath: file))
        let body = raw.starts(with: [0x1F, 0x8B]) ? try gunzip(file) : String(decoding: raw, as: UTF8.self)
        return (seconds, bytes, body)
    }

    /// The item ids a `stream/items/ids` answer lists.
    func ids(_ body: String) throws -> [String] {
        guard let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
            let refs = object["itemRefs"] as? [[String: Any]]
        else { throw BenchFailure("stream/items/ids did not answer JSON: \(body.prefix(200))") }
        return refs.compactMap { $0["id"] as? String }
    }

    /// The contents of `numbers`, `batch` at a time: seconds, bytes, requests.
    func contents(_ numbers: [String], encoding: String, directory: String) throws -> (seconds: Double, bytes: Int, requests: Int) {
        var total = (seconds: 0.0, bytes: 0, requests: 0)
        for start in stride(from: 0, to: numbers.count, by: batch) {
            let form = numbers[start..<min(start + batch, numbers.count)].map { "i=\($0)" }.joined(separator: "&")
            let answer = try request(
                ["-X", "POST", "--data", form, "\(base)/reader/api/0/stream/items/contents"], encoding: encoding, directory: directory)
            total = (total.seconds + answer.seconds, total.bytes + answer.bytes, total.requests + 1)
        }
        return total
    }

    func firstSync(encoding: String, directory: String) throws -> (seconds: Double, bytes: Int, requests: Int) {
        let list = try request(["\(base)/reader/api/0/stream/items/ids?n=\(items)"], encoding: encoding, directory: directory)
        let fetched = try contents(try ids(list.body), encoding: encoding, directory: directory)
        return (list.seconds + fetched.seconds, list.bytes + fetched.bytes, fetched.requests + 1)
    }

    /// `added` items imported by `aggr import` while the server runs, then what an app asks.
    func incrementalSync(encoding: String, directory: String) throws -> (seconds: Double, bytes: Int, found: Int) {
        let since = Int(Date().timeIntervalSince1970)
        let stamp = UUID().uuidString.prefix(8)
        let lines = (0..<added).map { number in
            #"{"provider":"p1","section":"s1","id":"late-\#(stamp)-\#(number)","kind":"post","title":"Late \#(number)","url":"https://p1.example/late/\#(stamp)/\#(number)","author":"a","published":"2020-01-01T00:00:00Z","summary":"late"}"#
        }
        let file = "\(directory)/late.ndjson"
        try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try ToolOutput.run(run.aggr, ["import", "--config", config, "--db", database, file])
        guard imported.status == 0 else { throw BenchFailure("aggr import: \(imported.text)") }
        let new = try request(["\(base)/reader/api/0/stream/items/ids?n=\(items)&ot=\(since)"], encoding: encoding, directory: directory)
        let numbers = try ids(new.body)
        let fetched = try contents(numbers, encoding: encoding, directory: directory)
        let unread = try request(
            ["\(base)/reader/api/0/stream/items/ids?n=\(items)&xt=user/-/state/com.google/read"], encoding: encoding, directory: directory)
        return (new.seconds + fetched.seconds + unread.seconds, new.bytes + fetched.bytes + unread.bytes, numbers.count)
    }

    /// Fever's sync upwards from `since_id=0` until `feverItems` are in (the open loopback
    /// server accepts any key).
    func feverSync(encoding: String, directory: String) throws -> (seconds: Double, bytes: Int, requests: Int, items: Int) {
        var total = (seconds: 0.0, bytes: 0, requests: 0, items: 0)
        var since = 0
        while total.items < feverItems {
            let page = try request(
                ["-X", "POST", "--data", "api_key=any", "\(base)/fever/?api&items&since_id=\(since)"], encoding: encoding,
                directory: directory, auth: false)
            guard let object = try JSONSerialization.jsonObject(with: Data(page.body.utf8)) as? [String: Any],
                let items = object["items"] as? [[String: Any]]
            else { throw BenchFailure("Fever items did not answer JSON: \(page.body.prefix(200))") }
            total = (total.seconds + page.seconds, total.bytes + page.bytes, total.requests + 1, total.items + items.count)
            guard let last = items.last?["id"] as? Int else { break }
            since = last
        }
        return total
    }

    func gunzip(_ file: String) throws -> String {
        try ToolOutput.run("/bin/sh", ["-c", "gzip -dc < \"$1\"", "sh", file]).text
    }
}
