import Aggregator
import AggregatorTestSupport
import Providers
import XCTest

final class GiteeParserTests: XCTestCase {
    let parser = GiteeParser(provider: "gitee", webURL: "https://gitee.com")

    func fixture(_ name: String) throws -> [UInt8] {
        guard let bytes = SharedFixtures.bytes("gitee/\(name)") else {
            throw XCTSkip("../shared/fixtures/gitee/\(name) not found: shared fixtures are not beside this checkout")
        }
        return bytes
    }

    func testIssuesKeepStringNumbersAndChineseLabels() throws {
        let items = try parser.issues(
            try fixture("repos-issues-list-kit101.json"), repo: "kit101/drone-yml-test", section: "issues/kit101/drone-yml-test")
        XCTAssertEqual(items.count, 2)
        XCTAssertEqual(items[0].id, "kit101/drone-yml-test#I4CE7W")
        XCTAssertEqual(items[0].title, "close issue test")
        XCTAssertEqual(items[0].url, "https://gitee.com/kit101/drone-yml-test/issues/I4CE7W")
        XCTAssertEqual(items[0].tags, ["invalid", "已完成", "任务"])
        XCTAssertEqual(ISOTimestamp.format(items[0].published), "2021-09-29T03:05:30Z", "+08:00 offsets")
        XCTAssertEqual(items[0].author?.name, "kit101")
        XCTAssertEqual(items[0].extra["number"], "I4CE7W")
    }

    func testPullsCommitsAndARepository() throws {
        let pulls = try parser.pulls(
            try fixture("repos-pulls-list-kit101.json"), repo: "kit101/drone-yml-test", section: "pulls/kit101/drone-yml-test")
        XCTAssertEqual(pulls.count, 3)
        XCTAssertEqual(pulls[0].title, "new-feature")
        XCTAssertEqual(pulls[0].url, "https://gitee.com/kit101/drone-yml-test/pulls/6")
        XCTAssertEqual(ISOTimestamp.format(pulls[0].published), "2021-09-30T08:38:19Z")
        let commits = try parser.commits(
            try fixture("repos-commits-list-kit101.json"), repo: "kit101/drone-yml-test", section: "commits/kit101/drone-yml-test")
        XCTAssertEqual(commits.count, 3)
        XCTAssertEqual(commits[0].id, "kit101/drone-yml-test@e3c0ff4d5cef439ea11b30866fb1ed79b420801d")
        XCTAssertEqual(commits[0].title, "add/update/delete/rename")
        XCTAssertEqual(commits[0].url, "https://gitee.com/kit101/drone-yml-test/commit/e3c0ff4d5cef439ea11b30866fb1ed79b420801d")
        XCTAssertEqual(ISOTimestamp.format(commits[0].published), "2021-08-23T15:45:53Z")
        let repository = try parser.repositories(try fixture("repos-get-kit101-drone-yml-test.json"), section: "search/x")
        XCTAssertEqual(repository.map(\.url), ["https://gitee.com/kit101/drone-yml-test"], "the .git suffix is dropped")
        XCTAssertEqual(repository[0].title, "kit101/drone-yml-test")
        XCTAssertEqual(repository[0].metrics, Metrics(stars: 0, forks: 0))
    }
}
