import Aggregator
import AggregatorTestSupport
import XCTest

/// The `exec` type: a program's output as items.
final class CommandTypeTests: EndToEndTestCase {
    func testCommandsEndToEnd() throws {
        let line =
            #"{"provider":"x","section":"y","id":"c1","kind":"post","title":"%s","url":"https://cmd.example/1","author":null,"published":"2026-11-20T10:00:00Z","updated":null,"summary":"","tags":[],"metrics":{},"image":null,"extra":{}}\n"#
        let rss =
            #"<rss version="2.0"><channel><title>From a script</title><item><title>Scripted</title><link>https://cmd.example/feed/1</link><guid>f1</guid></item></channel></rss>"#
        func entry(_ id: String, _ command: [String], extra: String = "") -> String {
            let argv = command.map { "\"\($0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\"" }
                .joined(separator: ", ")
            return #"{"id": "\#(id)", "type": "exec", "options": {"command": [\#(argv)]\#(extra)}}"#
        }
        let entries = [
            entry("lines", ["/bin/sh", "-c", "printf '\(line)' \"$GREETING|$HOME\""], extra: #", "env": {"GREETING": "hi"}"#),
            entry("feed", ["/usr/bin/printf", "%s", rss]),
            entry("slow", ["/bin/sleep", "5"], extra: #", "timeout": "1s""#),
            entry("failing", ["/bin/sh", "-c", "echo 'oops: no credentials' >&2; exit 3"]),
            entry("garbage", ["/usr/bin/printf", "not json at all\\n"]),
            entry("flood", ["/usr/bin/yes"], extra: #", "max_output": 2048"#),
            entry("missing", ["no-such-command-for-aggr"]),
        ]
        directory.write("providers.json", "{\"providers\": [\(entries.joined(separator: ",\n"))]}")
        let start = Date()
        let result = try aggr("refresh")
        XCTAssertLessThan(Date().timeIntervalSince(start), 4.5, "the slow command is stopped at its timeout")
        XCTAssertEqual(result.status, 2, result.stderr)
        let lines = Set(result.stderr.split(separator: "\n").map(String.init))
        for expected in [
            "lines run: 1 new, 0 updated, 0 unchanged",
            "feed run: 1 new, 0 updated, 0 unchanged",
            "slow run: failed: unexpected answer: sleep ran longer than 1 s and was stopped",
            "failing run: failed: unexpected answer: sh exited with status 3 (stderr: oops: no credentials)",
            "garbage run: failed: unexpected answer: printf printed a bad line: line 1: invalid JSON at column 1: invalid literal; expected null",
            "flood run: failed: unexpected answer: yes printed more than 2048 bytes (options.max_output)",
            "missing run: failed: unexpected answer: command \"no-such-command-for-aggr\" not found (give an absolute path or one on PATH)",
        ] {
            XCTAssertTrue(lines.contains(expected), "missing: \(expected)\n\(result.stderr)")
        }
        let json = try aggr("timeline", "--format", "ndjson")
        let items = try json.stdout.split(separator: "\n").map { try ItemJSONReader.item(from: JSONParser.parse(String($0))) }
        let scripted = try XCTUnwrap(items.first { $0.provider == "lines" })
        XCTAssertEqual(scripted.title, "hi|", "the command sees only the configured environment: no HOME")
        XCTAssertEqual(scripted.section, "run", "provider and section are the entry's, whatever the program printed")
        XCTAssertEqual(items.first { $0.provider == "feed" }?.title, "Scripted")
    }

    /// A command sees stdin, stdout and stderr only: not the database, sockets, or the pipes
    /// of commands running beside it.
    func testCommandsInheritNoOtherDescriptors() throws {
        let line =
            #"{"provider":"x","section":"y","id":"%s","kind":"post","title":"open: [%s]","url":"https://cmd.example/fds","author":null,"published":"2026-11-20T10:00:00Z","updated":null,"summary":"","tags":[],"metrics":{},"image":null,"extra":{}}\n"#
        // Lists descriptors above 2 with builtins only, so listing opens none itself.
        let script = """
            open=''; n=3; while [ $n -lt 1024 ]; do [ -e /proc/$$/fd/$n ] && open="$open $n"; n=$((n+1)); done; \
            printf '\(line)' "fds-$1" "$open"
            """
        var quoted = ""
        JSONWriter.appendQuoted(script, to: &quoted)
        var entries: [String] = []
        for index in 1...4 {
            entries.append(
                #"{"id": "fds\#(index)", "type": "exec", "options": {"command": ["/bin/sh", "-c", \#(quoted), "sh", "\#(index)"]}}"#)
        }
        entries.append(#"{"id": "web", "type": "feed", "sections": ["url/http://127.0.0.1:9/never"]}"#)
        directory.write("providers.json", "{\"providers\": [\(entries.joined(separator: ",\n"))]}")
        let result = try aggr("refresh")
        let titles = try aggr("timeline", "--no-dedupe", "--format", "tsv").stdout.split(separator: "\n").dropFirst().map {
            $0.split(separator: "\t", omittingEmptySubsequences: false)[6]
        }
        XCTAssertEqual(titles.count, 4, result.stderr)
        XCTAssertEqual(Set(titles), ["open: []"], "descriptors leaked into a command: \(titles)")
    }

    /// A timeout stops the command and everything it started; a command that backgrounds a
    /// child and exits leaves nothing behind and does not keep the refresh waiting.
    func testTimeoutsStopEveryProcessTheCommandStarted() throws {
        let line =
            #"{"provider":"x","section":"y","id":"o1","kind":"post","title":"orphan parent","url":"https://cmd.example/o","author":null,"published":"2026-11-20T10:00:00Z","updated":null,"summary":"","tags":[],"metrics":{},"image":null,"extra":{}}\n"#
        let commands: [(String, String, String)] = [
            ("sleeper", "sleep 21.4242; true", #", "timeout": "1s""#),
            ("orphan", "(sleep 31.4242 &); printf '\(line)'", ""),
            ("stubborn", "trap '' TERM; while :; do sleep 0.5; done # 41.4242", #", "timeout": "1s""#),
            ("silent", "exec >&- 2>&-; sleep 51.4242", #", "timeout": "1s""#),
        ]
        let entries = commands.map { id, script, extra in
            var quoted = ""
            JSONWriter.appendQuoted(script, to: &quoted)
            return #"{"id": "\#(id)", "type": "exec", "options": {"command": ["/bin/sh", "-c", \#(quoted)]\#(extra)}}"#
        }
        directory.write("providers.json", "{\"providers\": [\(entries.joined(separator: ",\n"))]}")
        let start = Date()
        let result = try runner.run(["refresh"], in: directory.path, timeout: 60)
        XCTAssertLessThan(Date().timeIntervalSince(start), 10, "nothing the commands started kept the refresh waiting")
        let lines = Set(result.stderr.split(separator: "\n").map(String.init))
        for expected in [
            "sleeper run: failed: unexpected answer: sh ran longer than 1 s and was stopped",
            "stubborn run: failed: unexpected answer: sh ran longer than 1 s and was stopped",
            "silent run: failed: unexpected answer: sh ran longer than 1 s and was stopped",
            "orphan run: 1 new, 0 updated, 0 unchanged",
        ] {
            XCTAssertTrue(lines.contains(expected), "missing: \(expected)\n\(result.stderr)")
        }
        let survivors = Process()
        survivors.executableURL = URL(fileURLWithPath: "/usr/bin/pgrep")
        survivors.arguments = ["-f", "21[.]4242|31[.]4242|41[.]4242|51[.]4242"]
        let output = Pipe()
        survivors.standardOutput = output
        try survivors.run()
        survivors.waitUntilExit()
        let pids = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(pids, "", "processes left behind by exec commands")
    }
}
