import Aggregator
import AggregatorTestSupport
import Providers
import XCTest

final class DribbbleParserTests: XCTestCase {
    let parser = DribbbleParser(provider: "dribbble", webURL: "https://dribbble.com")

    func fixture(_ name: String) throws -> [UInt8] {
        guard let bytes = SharedFixtures.bytes("dribbble/\(name)") else {
            throw XCTSkip("../shared/fixtures/dribbble/\(name) not found: shared fixtures are not beside this checkout")
        }
        return bytes
    }

    func testAPIv2ShotsUserAndProjects() throws {
        let account = try parser.account(try fixture("v2-user.json"), section: "shots")
        XCTAssertEqual(
            account,
            DribbbleParser.Account(
                id: 1, name: "Dan Cederholm", login: "simplebits", htmlUrl: "https://dribbble.com/simplebits", followersCount: 66_557))
        let owner = Author(name: account.name, url: account.htmlUrl)
        let shots = try parser.shots(try fixture("v2-user-shots.json"), section: "shots", owner: owner)
        XCTAssertEqual(shots.count, 2, "the documentation example lists the same shot twice; ingest keeps one")
        let shot = shots[0]
        XCTAssertEqual(shot.id, "shot/471756")
        XCTAssertEqual(shot.kind, .shot)
        XCTAssertEqual(shot.title, "Sasquatch")
        XCTAssertEqual(shot.url, "https://dribbble.com/shots/471756-Sasquatch")
        XCTAssertEqual(
            shot.image, "https://d13yacurqjgara.cloudfront.net/users/1/screenshots/471756/sasquatch.png", "hidpi is null: normal")
        XCTAssertEqual(shot.tags, ["fiction", "sasquatch", "sketch", "wip"])
        XCTAssertEqual(shot.summary, "Quick, messy, five minute sketch of something that might become a fictional something.")
        XCTAssertEqual(ISOTimestamp.format(shot.published), "2012-03-15T01:52:33Z")
        XCTAssertEqual(shot.metrics, Metrics(), "API v2 shots carry no counts")
        XCTAssertEqual(shot.author, owner, "and no user: the account stands in")

        let projects = try parser.projects(try fixture("v2-user-projects.json"), section: "projects", account: account)
        XCTAssertEqual(projects.map(\.title), ["Project: Web Standards Sherpa"])
        XCTAssertEqual(projects[0].url, "https://dribbble.com/simplebits/projects/3")
        XCTAssertEqual(projects[0].extra, ["shots": "4"])
    }

    func testTheOlderShapeWithCountsAndAUser() throws {
        let old = #"""
            [{"id": 1, "title": "Old", "html_url": "https://dribbble.com/shots/1-Old", "created_at": "2014-01-01T00:00:00Z",
              "images": {"hidpi": "https://cdn/x@2x.png", "normal": "https://cdn/x.png", "teaser": "https://cdn/x_teaser.png"},
              "likes_count": 10, "views_count": 200, "comments_count": 3,
              "user": {"name": "Old Timer", "username": "oldtimer", "html_url": "https://dribbble.com/oldtimer"}}]
            """#
        let items = try parser.shots(Array(old.utf8), section: "shots")
        XCTAssertEqual(items[0].metrics, Metrics(comments: 3, likes: 10, views: 200))
        XCTAssertEqual(items[0].author, Author(name: "Old Timer", url: "https://dribbble.com/oldtimer"))
        XCTAssertEqual(items[0].image, "https://cdn/x@2x.png", "hidpi first")
    }

    func testRealSearchPage() throws {
        let served = Date(timeIntervalSince1970: 1_542_800_000)
        let items = try parser.shotList(
            try fixture("html-search-material-design-recent-2018-11.html"), section: "search/material design", servedAt: served)
        XCTAssertEqual(items.count, 24)
        let first = items[0]
        XCTAssertEqual(first.id, "shot/5613296")
        XCTAssertEqual(first.title, "Product promotional presentation powerpoint template design")
        XCTAssertEqual(first.url, "https://dribbble.com/shots/5613296-Product-promotional-presentation-powerpoint-template-design")
        XCTAssertEqual(first.author, Author(name: "Rivat Fauzi", url: "https://dribbble.com/rivatxfz"))
        XCTAssertEqual(first.metrics, Metrics(comments: 0, likes: 7, views: 33))
        XCTAssertEqual(first.image, "https://cdn.dribbble.com/users/692409/screenshots/5613296/thumbnail_1_1x.png")
        XCTAssertEqual(items[23].id, "shot/5605036")
        XCTAssertGreaterThan(items[0].published, items[23].published, "page order is kept")
    }

    func testShotPageDetails() throws {
        let details = parser.shotDetails(try SharedFixtures.own("dribbble/shot-9100001.html"))
        XCTAssertEqual(details.published.map(ISOTimestamp.format), "2026-11-17T08:30:00Z")
        XCTAssertEqual(details.tags, ["weather", "app", "ios", "ui"])
        XCTAssertEqual(details.likes, 1_250)
        XCTAssertEqual(details.saves, 310)
    }
}
