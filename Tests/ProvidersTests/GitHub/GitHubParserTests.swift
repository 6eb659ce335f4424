import Aggregator
import AggregatorTestSupport
import Providers
import XCTest

final class GitHubParserTests: XCTestCase {
    let api = GitHubAPIParser(provider: "gh", webURL: "https://github.com", apiURL: "https://api.github.com")
    let events = GitHubEventParser(provider: "gh", webURL: "https://github.com")

    func fixture(_ name: String) throws -> [UInt8] {
        guard let bytes = SharedFixtures.bytes("github/\(name)") else {
            throw XCTSkip("../shared/fixtures/github/\(name) not found: shared fixtures are not beside this checkout")
        }
        return bytes
    }

    func iso(_ date: Date) -> String { ISOTimestamp.format(date) }

    func testPublicEventsWithReadableTitles() throws {
        let items = try events.events(try fixture("events-public-2020-04.json"), section: "user/x")
        XCTAssertEqual(items.count, 30)
        XCTAssertEqual(items[0].id, "event/12155213000")
        XCTAssertEqual(items[0].kind, .event)
        XCTAssertEqual(items[0].title, "fengjixuchui pushed 9 commits to master in fengjixuchui/EmbeddedSystem")
        XCTAssertEqual(items[0].url, "https://github.com/fengjixuchui/EmbeddedSystem/compare/060a41bfcf...695a871ac9")
        XCTAssertEqual(iso(items[0].published), "2020-04-25T12:07:00Z")
        XCTAssertEqual(items[29].title, "github-actions[bot] pushed 1 commit to master in montanaflynn/covid-19")
        XCTAssertTrue(
            items.contains {
                $0.title == "MarkTiukov opened pull request #3: Добавил обновление списков и удаление стрелок вместе с таблицами"
            })
        for item in items { XCTAssertFalse(item.url.contains("api.github.com"), "web URLs only: \(item.url)") }
    }

    func testLegacyEventsIncludingRetiredTypes() throws {
        let repo = try events.events(try fixture("repos-events-PyGithub-2012.json"), section: "events/PyGithub/PyGithub")
        XCTAssertEqual(repo.count, 30)
        XCTAssertEqual(repo[0].id, "event/1556239111")
        XCTAssertEqual(repo[0].title, "jacquev6: download in PyGithub/PyGithub", "a retired type still yields an item")
        XCTAssertEqual(repo[29].title, "jacquev6 commented on commit 6945921 in PyGithub/PyGithub")
        let titles = Set(repo.map(\.title))
        for expected in [
            "jacquev6 opened issue #30: Issue also created by PyGithub", "jacquev6 added Lyloa to PyGithub/PyGithub",
            "BeaverSoftware forked PyGithub/PyGithub to BeaverSoftware/PyGithub", "michaelpedersen starred PyGithub/PyGithub",
            "jacquev6 created tag v0.7 in PyGithub/PyGithub", "jacquev6 deleted branch topic/Authentication in PyGithub/PyGithub",
            "jacquev6 commented on issue #15: Implement all authentication schemes",
        ] {
            XCTAssertTrue(titles.contains(expected), expected)
        }
        let received = try events.events(try fixture("users-received_events-jacquev6-2012.json"), section: "received/jacquev6")
        XCTAssertEqual(received.count, 30)
        XCTAssertEqual(received[0].title, "cherryboss commented on issue #34: [new markup] Texy! formatter support")
        XCTAssertEqual(received[0].url, "https://github.com/github/markup/issues/34")
        XCTAssertEqual(received[29].title, "jacknagel closed pull request #12306: mu: don't depend on emacs")
    }

    func testSingleEventsOfNewerShapes() throws {
        let push = try events.events(try fixture("event-single-PushEvent-post-2025-10-shape.json"), section: "s")
        XCTAssertEqual(push.map(\.title), ["orhanarifoglu pushed to master in orhanarifoglu/orhanarifoglu"], "no size in the 2025 shape")
        let release = try events.events(try fixture("event-single-ReleaseEvent-2024-02.json"), section: "s")
        XCTAssertEqual(release[0].title, "github-actions[bot] published release Last-CI-build of open-watcom/open-watcom-v2")
        XCTAssertEqual(release[0].url, "https://github.com/open-watcom/open-watcom-v2/releases/tag/Last-CI-build")
    }

    func testReleases() throws {
        let page = try api.releases(
            try fixture("repos-releases-PyGithub-page1-2022.json"), repo: "PyGithub/PyGithub", section: "releases/PyGithub/PyGithub")
        XCTAssertEqual(page.count, 10)
        XCTAssertEqual(page[0].id, "release/41982557")
        XCTAssertEqual(page[0].title, "PyGithub v1.55")
        XCTAssertEqual(page[0].url, "https://github.com/PyGithub/PyGithub/releases/tag/v1.55")
        XCTAssertEqual(page[0].author?.name, "s-t-e-v-e-n-k")
        XCTAssertEqual(iso(page[0].published), "2021-04-26T04:44:57Z")
        XCTAssertTrue(page[0].summary.hasPrefix("Breaking Changes Remove client_id/client_secret authentication (#1888)"), page[0].summary)
        XCTAssertEqual(page[9].title, "PyGithub v1.46")
        let latest = try api.releases(try fixture("repos-releases-latest-single-2020.json"), repo: "rickrickston123/RepoTest", section: "s")
        XCTAssertEqual(latest.map(\.title), ["RepoTest Test"], "the name wins over the tag; a single object is read too")
        XCTAssertEqual(latest[0].extra["tag"], "v1.0")
    }

    func testIssuesExcludePullRequestsAndKeepLabelsAndComments() throws {
        let issues = try api.issues(
            try fixture("repos-issues-PyGithub-2024.json"), repo: "PyGithub/PyGithub", section: "issues/PyGithub/PyGithub", pulls: false)
        XCTAssertEqual(issues.count, 21, "30 entries, 9 of them pull requests")
        XCTAssertEqual(issues[0].id, "PyGithub/PyGithub#3042")
        XCTAssertEqual(issues[0].title, "github.Repository is missing method for GET automated-security-fixes")
        XCTAssertEqual(issues[0].kind, .issue)
        XCTAssertEqual(issues[0].metrics.comments, 0)
        XCTAssertEqual(issues[20].id, "PyGithub/PyGithub#2998")
        XCTAssertEqual(issues[20].metrics.comments, 3)
        let bugs = try api.issues(
            try fixture("repos-issues-PyGithub-type-bug-2025.json"), repo: "PyGithub/PyGithub", section: "s", pulls: false)
        XCTAssertEqual(bugs.first?.id, "PyGithub/PyGithub#3379")
        XCTAssertEqual(bugs.last?.id, "PyGithub/PyGithub#3372")
        XCTAssertEqual(bugs.count, 3)
        XCTAssertEqual(bugs[0].title, "Property `PaginatedList.totalCount` returns 0 when GitHub deprecation notices exists for API path")
        XCTAssertEqual(bugs[0].metrics.comments, 4)
        let pulls = try api.issues(
            try fixture("repos-pulls-rsn491-2020.json"), repo: "rsn491/PyGithub", section: "pulls/rsn491/PyGithub", pulls: true)
        XCTAssertEqual(pulls.map(\.title), ["Add support to reply to a Pull request comment"])
        XCTAssertEqual(pulls[0].kind, .pull)
        XCTAssertEqual(pulls[0].url, "https://github.com/rsn491/PyGithub/pull/1")
    }

    func testOneIssueOrPullAndItsComments() throws {
        // An element of the issues list is what GET /repos/{repo}/issues/{number} answers; the
        // list holds pull requests too (with a `pull_request` member).
        guard case .array(let entries) = try JSONParser.parse(bytes: try fixture("repos-issues-PyGithub-2024.json")) else {
            return XCTFail("the fixture is a list")
        }
        let pullEntry = try XCTUnwrap(entries.first { $0["pull_request"] != nil })
        let issueEntry = try XCTUnwrap(entries.first { $0["pull_request"] == nil })
        let pull = try api.issue(Array(JSONPrettyPrinter.format(pullEntry).utf8), repo: "PyGithub/PyGithub", section: "s")
        XCTAssertEqual(pull.kind, .pull)
        let issue = try api.issue(Array(JSONPrettyPrinter.format(issueEntry).utf8), repo: "PyGithub/PyGithub", section: "s")
        XCTAssertEqual(issue.kind, .issue)
        XCTAssertEqual(issue.id, "PyGithub/PyGithub#3042")
        let comments = try api.comments(
            Array(#"[{"id": 9, "html_url": "https://github.com/PyGithub/PyGithub/issues/3042#issuecomment-9", "body": "LGTM","#.utf8)
                + Array(#" "user": {"login": "rsn491"}, "created_at": "2024-05-01T00:00:00Z"}]"#.utf8),
            repo: "PyGithub/PyGithub", number: 3042, title: issue.title, section: "s")
        XCTAssertEqual(comments.map(\.id), ["PyGithub/PyGithub#3042/note/9"])
        XCTAssertEqual(comments[0].title, "Re: github.Repository is missing method for GET automated-security-fixes")
        XCTAssertEqual(comments[0].extra["topic"], "PyGithub/PyGithub#3042")
        XCTAssertThrowsError(try api.comments(Array("{}".utf8), repo: "o/r", number: 1, title: "t", section: "s"))
    }

    func testNotificationsSearchAndTrending() throws {
        let notifications = try api.notifications(try fixture("notifications-2018.json"), section: "notifications")
        XCTAssertEqual(notifications.count, 1)
        XCTAssertEqual(notifications[0].title, "dailymotion/jarvis: chore: Add more repos migrated on Quay")
        XCTAssertEqual(notifications[0].url, "https://github.com/dailymotion/jarvis/pull/103", "the API URL becomes the web page")
        XCTAssertEqual(notifications[0].tags, ["subscribed"])

        let search = try api.searchRepositories(try fixture("search-repositories-page1-2014.json"), section: "search/github")
        XCTAssertEqual(search.count, 30, "the 2014 shape without incomplete_results")
        XCTAssertEqual(search[0].title, "kennethreitz/legit")
        XCTAssertEqual(search[0].metrics, Metrics(stars: 3_036, forks: 118))
        XCTAssertEqual(search[0].extra["language"], "Python")
        XCTAssertEqual(search[0].summary, "Git for Humans, Inspired by GitHub for Mac™.")
        XCTAssertEqual(search[29].title, "dustin/py-github")
        XCTAssertEqual(try api.searchRepositories(try fixture("search-repositories-noresults-2018.json"), section: "s").count, 0)

        let served = Date(timeIntervalSince1970: 1_684_000_000)
        let trending = try GitHubTrendingParser(provider: "gh", webURL: "https://github.com", serverDate: served)
            .repositories(try fixture("html-trending-daily-2023-05.html"), section: "trending")
        XCTAssertEqual(trending.count, 25)
        XCTAssertEqual(trending[0].title, "smol-ai/developer")
        XCTAssertEqual(trending[0].metrics, Metrics(stars: 5_096, forks: 277))
        XCTAssertEqual(trending[0].extra["language"], "Python")
        XCTAssertEqual(trending[0].extra["period_stars"], "1,582 stars today")
        XCTAssertTrue(trending[0].summary.hasPrefix("with 100k context windows on the way"))
        XCTAssertEqual(trending[24].title, "public-apis/public-apis")
        XCTAssertEqual(trending[24].metrics.stars, 240_084)
        XCTAssertGreaterThan(trending[0].published, trending[24].published, "page order is kept")
    }

    func testAPIURLsBecomeWebPages() {
        XCTAssertEqual(api.webPage("https://api.github.com/repos/o/r/issues/12"), "https://github.com/o/r/issues/12")
        XCTAssertEqual(api.webPage("https://api.github.com/repos/o/r/commits/abc"), "https://github.com/o/r/commit/abc")
        XCTAssertEqual(api.webPage("https://api.github.com/repos/o/r/releases/99"), "https://github.com/o/r/releases")
        XCTAssertEqual(
            GitHubProvider.nextLink(#"<https://api.github.com/x?page=2>; rel="next", <https://api.github.com/x?page=5>; rel="last""#),
            "https://api.github.com/x?page=2")
        XCTAssertEqual(
            MarkdownText.plainText("## Title\n* **bold** `code` [link](https://x) ![img](y) __init__ client_id"),
            "Title\nbold code link img init client_id")
    }
}
