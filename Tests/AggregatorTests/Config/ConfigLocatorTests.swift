import Aggregator
import AggregatorTestSupport
import XCTest

final class ConfigLocatorTests: XCTestCase {
    func testLookupOrder() {
        let directory = TemporaryDirectory()
        let xdg = directory.file("xdg")
        directory.write("xdg/aggr/providers.json", "{}")
        var locator = ConfigLocator(environment: ["XDG_CONFIG_HOME": xdg, "HOME": "/nowhere"], workingDirectory: directory.file("cwd"))
        XCTAssertEqual(locator.configPath(explicit: "/explicit.json"), "/explicit.json")
        XCTAssertEqual(locator.configPath(explicit: nil), "\(xdg)/aggr/providers.json")
        directory.write("cwd/providers.json", "{}")
        XCTAssertEqual(locator.configPath(explicit: nil), directory.file("cwd/providers.json"))
        locator.environment["AGGR_CONFIG"] = "/from/env.json"
        XCTAssertEqual(locator.configPath(explicit: nil), "/from/env.json")
        XCTAssertEqual(locator.configPath(explicit: "/explicit.json"), "/explicit.json")
    }

    func testDatabaseLookupOrder() {
        var locator = ConfigLocator(environment: ["HOME": "/home/u"], workingDirectory: "/")
        XCTAssertEqual(locator.databasePath(explicit: nil), "/home/u/.local/share/aggr/aggr.sqlite")
        locator.environment["XDG_DATA_HOME"] = "/data"
        XCTAssertEqual(locator.databasePath(explicit: nil), "/data/aggr/aggr.sqlite")
        locator.environment["AGGR_DB"] = "/env.sqlite"
        XCTAssertEqual(locator.databasePath(explicit: nil), "/env.sqlite")
        XCTAssertEqual(locator.databasePath(explicit: "/flag.sqlite"), "/flag.sqlite")
    }
}
