import Aggregator
import AggregatorTestSupport
import XCTest

/// A database the user may read but not write (a shared file, a read-only mount): every
/// read command works; a write says the file is read-only.
final class ReadOnlyDatabaseTests: EndToEndTestCase {
    func testReadCommandsWorkOnAFileThatCannotBeWritten() throws {
        try XCTSkipIf(onPostgres, "file permissions are SQLite's")
        directory.write("providers.json", #"{"providers": [{"id": "forum", "type": "feed", "options": {"url": "http://127.0.0.1:9/f"}}]}"#)
        let line =
            #"{"provider":"forum","section":"feed","id":"1","kind":"post","title":"Readable","url":"https://forum.example/1","published":"2026-11-20T00:00:00Z"}"#
        XCTAssertEqual(try aggr("import", "-", input: line).status, 0)
        // Root may write any file whatever its mode: run aggr as nobody, who may only read it.
        var prefix: [String] = []
        if getuid() == 0 {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
                throw XCTSkip("running as root without setpriv (util-linux) to drop privileges")
            }
            prefix = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", runner.binary]
        }
        chmod(directory.path, 0o755)
        chmod(directory.file("aggr.sqlite"), 0o444)
        chmod(directory.file("providers.json"), 0o444)
        let reader = CLIRunner(binary: prefix.first ?? runner.binary, environment: runner.environment)
        func run(_ arguments: String...) throws -> CLIRunner.Result {
            try reader.run(Array(prefix.dropFirst()) + arguments, in: directory.path)
        }
        for arguments in [["timeline"], ["timeline", "--format", "ndjson"], ["search", "readable"], ["show", "1"], ["providers"]] {
            let result = try reader.run(Array(prefix.dropFirst()) + arguments, in: directory.path)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stdout.contains("Readable") || arguments == ["providers"], "\(arguments): \(result.stdout)")
        }
        let write = try run("read", "1")
        XCTAssertEqual(write.status, 1)
        XCTAssertEqual(write.stderr, "aggr: database \(directory.file("aggr.sqlite")): is read-only\n")
    }
}
