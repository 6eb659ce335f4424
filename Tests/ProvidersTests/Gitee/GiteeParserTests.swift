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
        XCTAssertEqual(items[0].extra["state"], "closed")
        XCTAssertEqual(items[0].metrics.comments, 0)
        XCTAssertEqual(items[1].id, "kit101/drone-yml-test#I4CD5P")
        XCTAssertEqual(items[1].title, "test issue 1")
        XCTAssertEqual(items[1].tags, ["feature", "待办的", "任务"])
        XCTAssertEqual(items[1].metrics.comments, 1)
        XCTAssertEqual(ISOTimestamp.format(items[1].published), "2021-09-29T01:21:28Z")
    }

    func testPullsCommitsAndARepository() throws {
        let pulls = try parser.pulls(
            try fixture("repos-pulls-list-kit101.json"), repo: "kit101/drone-yml-test", section: "pulls/kit101/drone-yml-test")
        XCTAssertEqual(pulls.count, 3)
        XCTAssertEqual(pulls[0].title, "new-feature")
        XCTAssertEqual(pulls[0].url, "https://gitee.com/kit101/drone-yml-test/pulls/6")
        XCTAssertEqual(ISOTimestamp.format(pulls[0].published), "2021-09-30T08:38:19Z")
        XCTAssertEqual(pulls.map(\.id), ["kit101/drone-yml-test!6", "kit101/drone-yml-test!5", "kit101/drone-yml-test!4"])
        XCTAssertEqual(pulls.map { $0.extra["state"] }, ["open", "closed", "open"])
        XCTAssertEqual(pulls[2].title, "create crud pr by api")
        let commits = try parser.commits(
            try fixture("repos-commits-list-kit101.json"), repo: "kit101/drone-yml-test", section: "commits/kit101/drone-yml-test")
        XCTAssertEqual(commits.count, 3)
        XCTAssertEqual(commits[0].id, "kit101/drone-yml-test@e3c0ff4d5cef439ea11b30866fb1ed79b420801d")
        XCTAssertEqual(commits[0].title, "add/update/delete/rename")
        XCTAssertEqual(commits[0].url, "https://gitee.com/kit101/drone-yml-test/commit/e3c0ff4d5cef439ea11b30866fb1ed79b420801d")
        XCTAssertEqual(ISOTimestamp.format(commits[0].published), "2021-08-23T15:45:53Z")
        XCTAssertEqual(commits.map(\.title), ["add/update/delete/rename", "change ready", "rename"], "trailing newlines dropped")
        XCTAssertEqual(commits[2].extra["sha"], "7e84b6f94b8d4bfaa051910cc4ce16b73bcffd51")
        XCTAssertEqual(ISOTimestamp.format(commits[2].published), "2021-08-23T15:41:22Z")
        XCTAssertEqual(commits[2].author?.name, "kit101")
        let repository = try parser.repositories(try fixture("repos-get-kit101-drone-yml-test.json"), section: "search/x")
        XCTAssertEqual(repository.map(\.url), ["https://gitee.com/kit101/drone-yml-test"], "the .git suffix is dropped")
        XCTAssertEqual(repository[0].title, "kit101/drone-yml-test")
        XCTAssertEqual(repository[0].metrics, Metrics(stars: 0, forks: 0))
        XCTAssertEqual(repository[0].id, "repo/kit101/drone-yml-test")
        XCTAssertEqual(repository[0].summary, "")
        XCTAssertNil(repository[0].extra["language"], "language null")
        XCTAssertEqual(repository[0].extra["human_name"], "kit101/drone-yml-test")
        XCTAssertEqual(repository[0].author, Author(name: "kit101", url: "https://gitee.com/kit101"))
        XCTAssertEqual(ISOTimestamp.format(repository[0].published), "2021-09-30T10:10:23Z", "pushed_at")
    }

    func testTagsWithMixedOffsetsAndEmptyMessages() throws {
        let tags = try parser.tags(
            try fixture("repos-tags-kit101.json"), repo: "kit101/drone-yml-test", section: "tags/kit101/drone-yml-test")
        XCTAssertEqual(tags.map(\.extra["tag"]), ["release-test", "1.1", "1.0", "1.2"])
        XCTAssertEqual(tags[0].id, "kit101/drone-yml-test/tag/release-test")
        XCTAssertEqual(tags[0].title, "drone-yml-test release-test")
        XCTAssertEqual(tags[0].url, "https://gitee.com/kit101/drone-yml-test/tree/release-test")
        XCTAssertEqual(tags[0].summary, "", "an empty tag message stays empty")
        XCTAssertEqual(tags[0].kind, .release)
        XCTAssertEqual(ISOTimestamp.format(tags[0].published), "2021-08-17T16:01:03Z", "+00:00")
        XCTAssertEqual(ISOTimestamp.format(tags[1].published), "2021-03-24T03:29:35Z", "+08:00")
        XCTAssertEqual(tags[1].summary, "1.1")
        XCTAssertEqual(tags[3].extra["sha"], "5e7876efb3468ff679410b82a72f7c002382d41e")
        XCTAssertEqual(Set(tags.map(\.id)).count, 4, "tags on one commit stay apart")
    }

    func testTheAuthenticatedUser() throws {
        let account = try parser.account(try fixture("user-kit101.json"), section: "user")
        XCTAssertEqual(account, GiteeParser.Account(login: "kit101", author: Author(name: "kit101", url: "https://gitee.com/kit101")))
        XCTAssertThrowsError(try parser.account(Array(#"{"login": ""}"#.utf8), section: "user"))
        XCTAssertThrowsError(try parser.account(Array(#"{"message": "401 Unauthorized"}"#.utf8), section: "user")) { error in
            XCTAssertTrue("\(error)".contains("login"), "\(error)")
        }
    }

    func testIssueCommentsAreRepliesTitledByTheirIssue() throws {
        let body = try fixture("repos-issues-comments-kit101.json")
        let comments = try parser.comments(
            body, repo: "kit101/drone-yml", number: "I4CD5P", issueTitle: nil, section: "issue/kit101/drone-yml/I4CD5P")
        XCTAssertEqual(comments.count, 1)
        let comment = comments[0]
        XCTAssertEqual(comment.id, "kit101/drone-yml#I4CD5P/note/6877445")
        XCTAssertEqual(comment.kind, .reply)
        XCTAssertEqual(comment.title, "Re: test issue 1", "the title the comment's target carries")
        XCTAssertEqual(comment.url, "https://gitee.com/kit101/drone-yml/issues/I4CD5P#note_6877445")
        XCTAssertEqual(comment.summary, "it's ok.")
        XCTAssertEqual(comment.author, Author(name: "kit101", url: "https://gitee.com/kit101"))
        XCTAssertEqual(ISOTimestamp.format(comment.published), "2021-09-29T03:00:50Z")
        XCTAssertNil(comment.updated, "updated_at equal to created_at is no update")
        let titled = try parser.comments(body, repo: "kit101/drone-yml", number: "I4CD5P", issueTitle: "Fetched title", section: "s")
        XCTAssertEqual(titled[0].title, "Re: Fetched title")
    }

    func testOwnReleasesAndSearchFixtures() throws {
        let releases = try parser.releases(
            try SharedFixtures.own("gitee/releases.json"), repo: "dromara/hutool", section: "releases/dromara/hutool")
        XCTAssertEqual(releases.map(\.title), ["hutool v5.8.32 正式版", "hutool v6.0.0-M18"], "an empty name falls back to the tag")
        XCTAssertEqual(
            releases.map(\.url),
            [
                "https://gitee.com/dromara/hutool/releases/tag/v5.8.32", "https://gitee.com/dromara/hutool/releases/tag/v6.0.0-M18",
            ])
        XCTAssertEqual(releases.map(\.tags), [[], ["prerelease"]])
        XCTAssertEqual(releases[0].author, Author(name: "Looly", url: "https://gitee.com/loolly"))
        XCTAssertEqual(releases[1].author?.name, "loolly", "an empty name falls back to the login")
        XCTAssertEqual(ISOTimestamp.format(releases[0].published), "2026-11-02T02:15:44Z")
        XCTAssertTrue(releases[0].summary.hasPrefix("🐣新特性 【core 】 CollUtil 新增 partition 方法 🐞Bug修复"), releases[0].summary)
        XCTAssertEqual(releases[1].summary, "", "a null body")

        let found = try parser.repositories(try SharedFixtures.own("gitee/search.json"), section: "search/hutool")
        XCTAssertEqual(found.map(\.id), ["repo/dromara/hutool", "repo/kit101/hutool-lite"])
        XCTAssertEqual(found.map(\.url), ["https://gitee.com/dromara/hutool", "https://gitee.com/kit101/hutool-lite"])
        XCTAssertEqual(found.map(\.metrics), [Metrics(stars: 30128, forks: 7621), Metrics(stars: 3, forks: 0)])
        XCTAssertEqual(found[0].extra["language"], "Java")
        XCTAssertEqual(
            found[0].author, Author(name: "dromara", url: "https://gitee.com/dromara"), "the namespace, not the creating account")
        XCTAssertEqual(found[1].title, "kit101/hutool 精简版", "human_name is the title")
        XCTAssertEqual(found[1].author, Author(name: "kit101", url: "https://gitee.com/kit101"))
        XCTAssertNil(found[1].extra["language"])
        XCTAssertEqual(ISOTimestamp.format(found[0].published), "2026-11-20T10:30:12Z", "pushed_at")
        XCTAssertEqual(ISOTimestamp.format(found[1].published), "2025-03-02T02:30:00Z", "no push: updated_at")
    }

    func testOwnEventsFixtureReadsGiteeEventNames() throws {
        let events = GitHubEventParser(provider: "gitee", webURL: "https://gitee.com")
        let items = try events.events(try SharedFixtures.own("gitee/events.json"), section: "events/dromara/hutool")
        XCTAssertEqual(
            items.map(\.title),
            [
                "loolly pushed 2 commits to v5-master in dromara/hutool",
                "kit101 open issue #IB9T3F: JSONUtil.toBean 遇到空字符串报错",
                "yuki_dev starred dromara/hutool",
                "kit101 commented on dromara/hutool",
            ])
        XCTAssertEqual(
            items.map(\.url),
            [
                "https://gitee.com/dromara/hutool", "https://gitee.com/dromara/hutool/issues/IB9T3F", "https://gitee.com/dromara/hutool",
                "https://gitee.com/dromara/hutool#note_6877999",
            ])
        XCTAssertEqual(items.map(\.id), ["event/198112300", "event/198110955", "event/198109871", "event/198100012"])
        XCTAssertEqual(items.map { $0.extra["repo"] }, Array(repeating: "dromara/hutool", count: 4))
        XCTAssertEqual(ISOTimestamp.format(items[0].published), "2026-11-20T10:30:12Z")
        XCTAssertEqual(items[3].summary, "感谢维护 🙏", "escape sequences from upstream are stripped")

        let follow = try events.events(
            Array(
                #"[{"id": 7, "type": "FollowEvent", "actor": {"login": "kit101"}, "repo": null, "created_at": "2026-11-20T08:00:00+08:00"}]"#
                    .utf8),
            section: "user/kit101")
        XCTAssertEqual(follow.map(\.title), ["kit101: follow"], "an event without a repository")
        XCTAssertEqual(follow.map(\.url), ["https://gitee.com/kit101"])
    }
}
