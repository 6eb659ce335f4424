import Aggregator
import AggregatorTestSupport
import Foundation

/// The user's own commands as whole processes, beside the sqlite3 shell doing the same work
/// on the same file in the same run, at 10k, 100k and 1M items: `aggr import`, `timeline`,
/// a filtered timeline, `search`, and `--version`.
struct UserCommandBench {
    var run: BenchRun
    static let shell = "/usr/bin/sqlite3"

    /// The columns and joins `aggr timeline` reads (ItemRow.selection), for the shell's query.
    static let selection = """
        SELECT i.ref, i.provider, i.section, i.item_id, i.kind, i.title, i.url, i.author, i.author_url, i.summary, i.content,
        i.published, i.updated, i.tags, i.replies, i.comments, i.stars, i.forks, i.likes, i.views, i.image, i.extra, i.first_seen,
        i.read_at, s.title FROM item i LEFT JOIN section s ON s.provider = i.provider AND s.key = i.section
        """
    static let dedupe =
        "NOT EXISTS (SELECT 1 FROM item o WHERE o.canonical_url = i.canonical_url AND o.provider <> i.provider AND o.ref < i.ref)"
    static let order = "ORDER BY i.published DESC, i.provider, i.item_id LIMIT 51"

    /// Writes `count` synthetic items as NDJSON (the import's input) and as TSV (the shell's).
    func writeInputs(count: Int, ndjson: String, tsv: String) throws {
        guard let json = OutputStream(toFileAtPath: ndjson, append: false), let rows = OutputStream(toFileAtPath: tsv, append: false)
        else { throw BenchFailure("cannot write \(ndjson)") }
        json.open()
        rows.open()
        defer {
            json.close()
            rows.close()
        }
        var offset = 0
        while offset < count {
            let provider = "p\(offset / 1_000 % 8)"
            let items = ItemFactory.synthetic(
                provider: provider, section: "s\(offset / 1_000 % 50)", count: min(1_000, count - offset), startingAt: offset)
            var jsonText = ""
            var tsvText = ""
            for item in items {
                jsonText += ItemJSON.line(item) + "\n"
                let published = Int64(item.published.timeIntervalSince1970 * 1000)
                let tags = "[" + item.tags.map { "\"\($0)\"" }.joined(separator: ",") + "]"
                tsvText +=
                    [
                        item.provider, item.section, item.id, item.kind.rawValue, item.title, item.url, item.author?.name ?? "",
                        item.summary, String(published), tags, String(item.metrics.replies ?? 0),
                    ].joined(separator: "\t") + "\n"
            }
            _ = Array(jsonText.utf8).withUnsafeBufferPointer { json.write($0.baseAddress!, maxLength: $0.count) }
            _ = Array(tsvText.utf8).withUnsafeBufferPointer { rows.write($0.baseAddress!, maxLength: $0.count) }
            offset += items.count
        }
    }

    /// The shell's bulk load of the same rows into aggr's schema, index included: what
    /// "SQLite speed" means for an import.
    static func shellImport(tsv: String) -> String {
        """
        CREATE TEMP TABLE staging (provider, section, item_id, kind, title, url, author, summary, published, tags, replies);
        .mode tabs
        .import \(tsv) staging
        BEGIN;
        INSERT INTO item (provider, section, item_id, kind, title, url, canonical_url, author, summary, published, tags, replies,
            extra, first_seen)
            SELECT provider, section, item_id, kind, title, url, url, author, summary, published, tags, replies, '{}', 0 FROM staging;
        INSERT INTO item_fts (rowid, title, summary, author, tags)
            SELECT ref, title, summary, author, (SELECT group_concat(value, ' ') FROM json_each(tags)) FROM item;
        COMMIT;
        """
    }

    func measure(directory: String) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.shell) else {
            print("== user commands: the sqlite3 shell is not installed (scripts/bootstrap --bench installs it)")
            return
        }
        let version = try median(11) { try run.spawn(run.aggr, ["--version"]).seconds }
        let shellVersion = try median(11) { try run.spawn(Self.shell, ["--version"]).seconds }
        print("== aggr --version: \(ms(version)) vs sqlite3 --version \(ms(shellVersion)) → \(ratio(version, shellVersion)) (goal ≤ 3×)")
        // A static Swift program with Foundation that only prints: below it no Swift program starts.
        let folder = URL(fileURLWithPath: run.aggr).deletingLastPathComponent()
        let floorPath = folder.appendingPathComponent("startup-floor").path
        if FileManager.default.isExecutableFile(atPath: floorPath) {
            let floor = try median(11) { try run.spawn(floorPath, []).seconds }
            print(
                "   floor: a static Swift program with Foundation printing one line: \(ms(floor)) → \(ratio(floor, shellVersion)) of sqlite3"
            )
        }
        // The same with the argument parser aggr keeps, parsing a command tree like aggr's.
        let parserPath = folder.appendingPathComponent("startup-floor-parser").path
        var parserFloor: Double?
        if FileManager.default.isExecutableFile(atPath: parserPath) {
            let parserVersion = try median(11) { try run.spawn(parserPath, ["--version"]).seconds }
            let parserListing = try median(11) { try run.spawn(parserPath, ["timeline", "--limit", "50", "--db", "x"]).seconds }
            print(
                "   floor with ArgumentParser (startup-floor-parser): --version \(ms(parserVersion)) → \(ratio(parserVersion, shellVersion)) "
                    + "of sqlite3, `timeline --limit 50` parsed and one line printed \(ms(parserListing))"
            )
            parserFloor = parserListing
        }
        for count in [10_000, 100_000, 1_000_000] {
            try measure(count: count, directory: directory, parserFloor: parserFloor)
        }
    }

    /// `parserFloor`: the argument parser's floor parsing a timeline command, when built.
    func measure(count: Int, directory: String, parserFloor: Double?) throws {
        let label = count >= 1_000_000 ? "\(count / 1_000_000)M" : "\(count / 1_000)k"
        let ndjson = "\(directory)/items-\(label).ndjson"
        let tsv = "\(directory)/items-\(label).tsv"
        try writeInputs(count: count, ndjson: ndjson, tsv: tsv)
        defer {
            try? FileManager.default.removeItem(atPath: ndjson)
            try? FileManager.default.removeItem(atPath: tsv)
        }
        let database = "\(directory)/user-\(label).sqlite"
        // Side by side: aggr and the shell take turns, each into a fresh database, after a
        // `sync` so neither pays for writing back the other's pages.
        let reference = "\(directory)/shell-\(label).sqlite"
        let script = "\(directory)/shell-import.sql"
        try Self.shellImport(tsv: tsv).write(toFile: script, atomically: true, encoding: .utf8)
        var aggrRuns: [BenchRun.Measurement] = []
        var shellRuns: [Double] = []
        for round in 0..<3 {
            [database, reference].forEach(BenchRun.removeDatabase)
            // The shell loads the same rows into an empty database with aggr's schema.
            _ = try run.spawn(run.aggr, ["import", "/dev/null", "--db", reference])
            _ = try run.spawn("/bin/sync", [])
            if round % 2 == 0 {
                aggrRuns.append(try run.spawn(run.aggr, ["import", ndjson, "--db", database]))
                _ = try run.spawn("/bin/sync", [])
                shellRuns.append(try run.spawn("/bin/sh", ["-c", "\(Self.shell) '\(reference)' < '\(script)'"]).seconds)
            } else {
                shellRuns.append(try run.spawn("/bin/sh", ["-c", "\(Self.shell) '\(reference)' < '\(script)'"]).seconds)
                _ = try run.spawn("/bin/sync", [])
                aggrRuns.append(try run.spawn(run.aggr, ["import", ndjson, "--db", database]))
            }
        }
        BenchRun.removeDatabase(reference)
        let imported = aggrRuns.sorted { $0.seconds < $1.seconds }[1]
        let peak = aggrRuns.map(\.peakMegabytes).max() ?? 0
        let shellImport = shellRuns.sorted()[1]
        print("== \(label) items")
        print(
            String(
                format:
                    "   aggr import: %.2f s, %.0f items/s, peak RSS %.1f MB | sqlite3 shell bulk load: %.2f s, %.0f items/s → %.2f× (medians of 3, taking turns; goals ≤ 1.25×, ≤ 64 MB)",
                imported.seconds, Double(count) / imported.seconds, peak, shellImport, Double(count) / shellImport,
                imported.seconds / shellImport))

        let timeline = try median(11) { try run.spawn(run.aggr, ["timeline", "--limit", "50", "--db", database]).seconds }
        let shellTimeline = try median(11) {
            try run.spawn(Self.shell, [database, "\(Self.selection) WHERE \(Self.dedupe) \(Self.order)"]).seconds
        }
        print("   timeline --limit 50: \(ms(timeline)) vs sqlite3 \(ms(shellTimeline)) → \(ratio(timeline, shellTimeline)) (goal ≤ 3×)")
        if let parserFloor {
            print(
                "     the parse alone (startup-floor-parser) is \(ratio(parserFloor, shellTimeline)) of this sqlite3 query; "
                    + "aggr is \(ratio(timeline, parserFloor)) of the parse alone")
        }

        let filter = #"title ~ "swift" and replies > 5"#
        let filtered = try median(11) {
            try run.spawn(run.aggr, ["timeline", "--limit", "50", "--where", filter, "--db", database]).seconds
        }
        let shellFiltered = try median(11) {
            try run.spawn(
                Self.shell, [database, "\(Self.selection) WHERE i.title REGEXP 'swift' AND i.replies > 5 AND \(Self.dedupe) \(Self.order)"]
            ).seconds
        }
        print(
            "   timeline --where '\(filter)': \(ms(filtered)) vs sqlite3 REGEXP \(ms(shellFiltered)) → \(ratio(filtered, shellFiltered)) (goal ≤ 3×)"
        )

        for (words, match) in [
            ("concurrency", "\"concurrency\""), ("数据库", "\"数据 据库\""), ("timeline parser", "\"timeline\" AND \"parser\""),
        ] {
            let search = try median(11) { try run.spawn(run.aggr, ["search", words, "--limit", "20", "--db", database]).seconds }
            let shellSearch = try median(11) {
                try run.spawn(
                    Self.shell,
                    [
                        database,
                        "\(Self.selection) WHERE i.ref IN (SELECT rowid FROM item_fts WHERE item_fts MATCH '\(match)' ORDER BY rowid DESC LIMIT 1000) ORDER BY i.published DESC LIMIT 20",
                    ]
                ).seconds
            }
            print("   search \"\(words)\": \(ms(search)) vs sqlite3 MATCH \(ms(shellSearch)) → \(ratio(search, shellSearch)) (goal ≤ 3×)")
        }
        BenchRun.removeDatabase(database)
    }

    func median(_ runs: Int, _ body: () throws -> Double) throws -> Double {
        _ = try body()  // warm the page cache
        var times: [Double] = []
        for _ in 0..<runs { times.append(try body()) }
        return times.sorted()[runs / 2]
    }

    func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }
    func ratio(_ a: Double, _ b: Double) -> String { String(format: "%.2f×", a / b) }
}
