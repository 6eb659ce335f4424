import Aggregator
import AggregatorTestSupport
import Foundation

/// `aggr tui` on a 1M-item database, as a person at a terminal meets it.
///
/// The whole process is started on a pseudo-terminal and timed from spawn to its first complete screen, then from
/// each keypress written to the last byte of the redraw it causes (goal: first screen
/// ≤ 100 ms, keypress ≤ 16 ms). The sqlite3 shell reading the same first screen's rows is
/// printed beside it.
struct TerminalBench {
    var run: BenchRun
    var count = Int(ProcessInfo.processInfo.environment["AGGR_BENCH_TUI_ITEMS"] ?? "") ?? 1_000_000
    /// Output quiet for this long ends a frame.
    let quiet: Int32 = 40

    func measure(directory: String) throws {
        print("== aggr tui on \(count / 1_000)k items, 100×30 pseudo-terminal (goal: first screen ≤ 100 ms, keypress ≤ 16 ms)")
        print("   (it opens on All; the views are swift: title ~ 'swift' and busy: replies > 5)")
        let (database, config) = try BenchPhases.frontEndFixture(in: directory, name: "tui", count: count)

        var firstScreens: [Double] = []
        var keys: [String: [Double]] = [:]
        var firstBytes: [String: [Double]] = [:]
        let script: [(label: String, bytes: String)] =
            Array(repeating: ("j (down one)", "j"), count: 10) + [
                ("ctrl-d (half page)", "\u{04}"), ("Tab (provider p0)", "\t"), ("shift-Tab (All)", "\u{1B}[Z"),
                ("shift-Tab (view busy: replies > 5)", "\u{1B}[Z"), ("shift-Tab (view swift: a regex)", "\u{1B}[Z"),
                ("Enter (open an item, mark it read)", "\r"),
                ("q (back to the list)", "q"), ("G (bottom of the loaded page)", "G"),
            ]
        for round in 0..<5 {
            let terminal = try PseudoTerminal(
                argv: [run.aggr, "tui", "--config", config, "--db", database], environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8"],
                rows: 30, columns: 100)
            defer { terminal.finish() }
            let first = try terminal.frame(quietMilliseconds: quiet)
            guard first.bytes > 0 else { throw BenchFailure("aggr tui drew nothing") }
            firstScreens.append(first.lastByte)
            // The first round warms the page cache; the rest are measured.
            guard round > 0 else { continue }
            for step in script {
                let frame = try terminal.press(step.bytes, quietMilliseconds: quiet)
                keys[step.label, default: []].append(frame.lastByte)
                firstBytes[step.label, default: []].append(frame.firstByte)
            }
        }
        let measured = Array(firstScreens.dropFirst()).sorted()
        print(
            String(
                format: "   first screen (spawn → last byte of the first frame): median %.1f ms, worst %.1f ms (cold first run %.1f ms)",
                measured[measured.count / 2] * 1_000, measured.last! * 1_000, firstScreens[0] * 1_000))
        for label in script.map(\.label).reduce(into: [String](), { if !$0.contains($1) { $0.append($1) } }) {
            let samples = keys[label, default: []].sorted()
            let first = firstBytes[label, default: []].sorted()
            guard !samples.isEmpty else { continue }
            print(
                "   " + label.padding(toLength: 38, withPad: " ", startingAt: 0)
                    + String(
                        format: "last byte: median %5.1f ms, worst %5.1f ms; first byte: median %5.1f ms (%d presses)",
                        samples[samples.count / 2] * 1_000, samples.last! * 1_000, first[first.count / 2] * 1_000, samples.count))
        }
        try sqliteReference(database: database)
    }

    /// The sqlite3 shell, as a whole process, reading what the first screen shows: 200 list
    /// rows and one unread count per tab.
    func sqliteReference(database: String) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else {
            print("   sqlite3 shell: not installed (apt-get install sqlite3) — no reference figure")
            return
        }
        var counts = ["SELECT count(*) FROM (SELECT 1 FROM item WHERE read_at IS NULL LIMIT 1000);"]
        counts += (0..<10).map { "SELECT count(*) FROM (SELECT 1 FROM item WHERE provider = 'p\($0)' AND read_at IS NULL LIMIT 1000);" }
        let sql =
            "SELECT ref, provider, title, published FROM item ORDER BY published DESC, provider, item_id LIMIT 200;" + counts.joined()
        var samples: [Double] = []
        for _ in 0..<7 {
            samples.append(try run.spawn("/usr/bin/sqlite3", [database, sql]).seconds)
        }
        samples.sort()
        print(String(format: "   sqlite3 shell, the same rows and counts (whole process): median %.1f ms", samples[3] * 1_000))
    }
}
