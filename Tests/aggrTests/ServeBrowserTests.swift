import Aggregator
import AggregatorTestSupport
import XCTest

/// The web UI in a real browser: headless Chromium loads the pages, runs their script, and
/// the tests read the DOM it ends with.
final class ServeBrowserTests: ServeTestCase {
    /// Chromium's binary, or a skip naming the package.
    func chromium() throws -> String {
        for path in ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        where FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        throw XCTSkip("chromium is not installed (scripts/bootstrap installs the Debian package)")
    }

    /// The DOM of `url` after its scripts ran.
    func dumpDOM(_ url: String) throws -> String {
        let result = try ToolOutput.run(
            "/usr/bin/timeout",
            [
                "60", try chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--user-data-dir=\(directory.file("chromium-profile"))", "--virtual-time-budget=3000", "--dump-dom", url,
            ])
        XCTAssertEqual(result.status, 0, "chromium exited with \(result.status)")
        return result.text
    }

    func testTheBrowserShowsTabsItemsAndTheGridAndRunsNoUpstreamScript() throws {
        writeConfig()
        try importItems()
        let base = try startServe()

        let home = try dumpDOM(base + "/")
        XCTAssertTrue(home.contains("<html lang=\"en\" class=\"js\">"), "the page's own script ran: \(home.prefix(300))")
        for tab in ["releases", "chinese", "All", "v2ex", "shots", "blog"] {
            XCTAssertTrue(home.contains(">\(tab)<"), "tab \(tab)")
        }
        XCTAssertTrue(home.contains("数据库选型讨论") && home.contains("Ocean app"))
        XCTAssertFalse(home.contains("id=\"xss-"), "an upstream script ran on the timeline")

        let grid = try dumpDOM(base + "/?tab=p:shots")
        XCTAssertTrue(grid.contains("<ol class=\"grid\">"))
        XCTAssertEqual(grid.components(separatedBy: "<li class=\"card").count - 1, 2, "both shots as cards")

        let hostile = try dumpDOM(base + "/item/6")
        XCTAssertTrue(hostile.contains("class=\"js\""), "scripts were on")
        XCTAssertTrue(hostile.contains("Release 2.0 &lt;script&gt;"), "the title shows as text")
        XCTAssertFalse(hostile.contains("id=\"xss-"), "an upstream script, event handler or javascript: link ran: \(hostile)")
        XCTAssertFalse(hostile.contains("<iframe") || hostile.contains("<svg") || hostile.contains("<style>"))
        XCTAssertFalse(hostile.contains("javascript:"))
        XCTAssertFalse(hostile.contains("onerror"))
    }
}
