import Aggregator
import AggregatorTestSupport
import ConsoleFrontEnd
import XCTest

final class WatchLockTests: XCTestCase {
    func testASecondClaimIsRefusedWithTheOwnersPidUntilTheFirstIsReleased() throws {
        let directory = TemporaryDirectory(prefix: "aggr-lock")
        let database = directory.file("aggr.sqlite")
        var first: WatchLock? = try WatchLock(database: database)
        XCTAssertEqual(try String(contentsOfFile: database + ".watch", encoding: .utf8), "\(getpid()) aggr watch\n")
        XCTAssertThrowsError(try WatchLock(database: database)) { error in
            XCTAssertEqual(error as? WatchLock.Failure, .held(path: database + ".watch", pid: getpid(), holder: "aggr watch"))
            XCTAssertTrue("\(error)".contains("aggr watch (pid \(getpid())) is already watching"))
        }
        XCTAssertNotNil(first)
        first = nil
        var serve: WatchLock? = try WatchLock(database: database, holder: "aggr serve")
        XCTAssertThrowsError(try WatchLock(database: database)) { error in
            XCTAssertTrue("\(error)".contains("aggr serve (pid \(getpid())) is already refreshing this database"), "\(error)")
        }
        XCTAssertNotNil(serve)
        serve = nil
        XCTAssertNoThrow(try WatchLock(database: database), "released when its owner lets go")
    }

    func testAnUnwritableDirectoryIsAClearError() {
        XCTAssertThrowsError(try WatchLock(database: "/nonexistent-dir/aggr.sqlite")) { error in
            XCTAssertTrue("\(error)".hasPrefix("cannot lock /nonexistent-dir/aggr.sqlite.watch: "), "\(error)")
        }
    }
}

final class WatchLogTests: XCTestCase {
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""
        func append(_ chunk: String) { lock.withLock { text += chunk } }
        var value: String { lock.withLock { text } }
    }

    func testALogHasOneTimestampedLinePerSectionPassAndNotification() {
        let lines = Lines()
        let log = WatchLog(live: false, color: false, width: 80, clock: { Date(timeIntervalSince1970: 1_795_000_000) }, write: lines.append)
        log.handle(.passStarted(providers: ["blog"]))
        log.handle(RefreshEvent.started(provider: "blog", sections: ["feed"]))
        log.handle(RefreshEvent.sectionFinished(provider: "blog", section: "feed", outcome: .unchanged))
        var summary = RefreshSummary()
        summary.outcomes = [ProviderOutcome(provider: "blog")]
        log.handle(.passFinished(summary))
        log.handle(.matched(rule: "mentions", count: 2))
        log.handle(
            .delivered(NotificationDelivery(rule: "mentions", channel: .command, succeeded: false, detail: "hook exited with status 3")))
        log.handle(.waiting(until: Date(timeIntervalSince1970: 1_795_000_060), provider: "blog"))
        let stamp = ISOTimestamp.format(Date(timeIntervalSince1970: 1_795_000_000))
        XCTAssertEqual(
            lines.value.split(separator: "\n").map(String.init),
            [
                "\(stamp) blog feed: not modified",
                "\(stamp) 1 provider refreshed in 0.0 s: 0 new, 0 updated, 0 unchanged, 0 failed",
                "\(stamp) notify mentions: 2 new items",
                "\(stamp) notify mentions: command: failed: hook exited with status 3",
                "\(stamp) next: blog at \(ISOTimestamp.format(Date(timeIntervalSince1970: 1_795_000_060)))",
            ])
    }

    func testOnATerminalTheStatusLineIsRewrittenNotRepeated() {
        let lines = Lines()
        let log = WatchLog(live: true, color: false, width: 80, write: lines.append)
        log.handle(.waiting(until: Date(), provider: "blog"))
        log.handle(.configReloaded(Configuration(file: "providers.json")))
        XCTAssertTrue(lines.value.hasPrefix("watching · next: blog at "), lines.value)
        XCTAssertTrue(lines.value.hasSuffix("\r\u{1B}[2Kproviders.json changed: reloaded\n"), lines.value)
        XCTAssertFalse(lines.value.contains("\u{1B}]"), "no OSC from a log line")
    }
}
