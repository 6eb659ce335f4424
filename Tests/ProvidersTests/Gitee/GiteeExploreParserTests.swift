import Aggregator
import AggregatorTestSupport
import Providers
import XCTest

/// The explore pages (featured, popular, latest) against the project's own fixtures.
final class GiteeExploreParserTests: XCTestCase {
    let served = ISOTimestamp.parse("2026-11-21T00:00:00Z")!

    var parser: GiteeExploreParser { GiteeExploreParser(provider: "gitee", webURL: "https://gitee.com", serverDate: served) }

    func testFeaturedRowsInRankOrder() throws {
        let page = try parser.page(try SharedFixtures.own("gitee/explore-recommend.html"), section: "featured", ranked: true)
        XCTAssertTrue(page.hasNext)
        let items = page.items
        XCTAssertEqual(
            items.map(\.id),
            [
                "repo/dromara/sa-token", "repo/y_project/RuoYi", "repo/openharmony/docs", "repo/lowcode-dev/form-engine",
            ])
        XCTAssertEqual(items[0].title, "dromara/Sa-Token")
        XCTAssertEqual(items[0].url, "https://gitee.com/dromara/sa-token")
        XCTAssertEqual(items[0].kind, .repo)
        XCTAssertEqual(items[0].metrics, Metrics(stars: 28016, forks: 4600), "data-count is exact; 4.6K is rounded")
        XCTAssertEqual(items[0].extra["language"], "Java")
        XCTAssertEqual(items[0].extra["rank"], "1")
        XCTAssertEqual(items[0].tags, ["GVP", "权限管理", "单点登录"])
        XCTAssertEqual(items[0].author, Author(name: "dromara", url: "https://gitee.com/dromara"))
        XCTAssertTrue(items[0].summary.hasPrefix("这可能是史上功能最全的 Java 权限认证框架！"))
        XCTAssertEqual(ISOTimestamp.format(items[0].updated!), "2026-11-19T08:42:08Z", "page dates are China time")
        XCTAssertEqual(
            items.map { ISOTimestamp.format($0.published) },
            [
                "2026-11-21T00:00:00Z", "2026-11-20T23:59:59Z", "2026-11-20T23:59:58Z", "2026-11-20T23:59:57Z",
            ], "ranked lists keep page order")
        XCTAssertEqual(items[1].title, "若依/RuoYi")
        XCTAssertEqual(items[1].author?.name, "若依", "the namespace's display name")
        XCTAssertEqual(items[1].metrics, Metrics(stars: 39712, forks: 19000), "1.9W = 19,000")
        XCTAssertEqual(items[2].url, "https://gitee.com/openharmony/docs", "an absolute href")
        XCTAssertEqual(items[2].metrics, Metrics(stars: 1500, forks: nil), "no data-count: 1.5K")
        XCTAssertNil(items[2].extra["language"])
        XCTAssertEqual(ISOTimestamp.format(items[2].updated!), "2026-11-20T21:00:00Z", "3小时前 from the server's date")
        XCTAssertEqual(items[2].summary, "OpenHarmony documentation | OpenHarmony开发者文档 & 指南")
        XCTAssertFalse(items[3].title.contains("\u{1B}"), "escape sequences are stripped: \(items[3].title)")
        XCTAssertFalse(items[3].title.contains("evil.example") && items[3].title.contains("\u{1B}"))
        XCTAssertEqual(items[3].summary, "")
        XCTAssertNil(items[3].updated)
        XCTAssertEqual(items[3].metrics, Metrics(stars: 0, forks: nil))
    }

    func testLatestIsDatedByUpdateAndRanksContinueAcrossPages() throws {
        let latest = try parser.page(try SharedFixtures.own("gitee/explore-latest.html"), section: "latest", ranked: false, offset: 20)
        XCTAssertFalse(latest.hasNext)
        XCTAssertEqual(latest.items.map(\.id), ["repo/mindspore/mindspore", "repo/zhijiantianya/ruoyi-vue-pro"])
        XCTAssertEqual(latest.items.map { ISOTimestamp.format($0.published) }, ["2026-11-20T15:58:40Z", "2026-11-20T15:41:02Z"])
        XCTAssertEqual(latest.items.map { $0.extra["rank"] }, ["21", "22"])
        XCTAssertEqual(latest.items[1].metrics, Metrics(stars: 32841, forks: nil))
        XCTAssertEqual(latest.items[0].extra["language"], "Python")
        let popular = try parser.page(try SharedFixtures.own("gitee/explore-starred.html"), section: "popular", ranked: true)
        XCTAssertEqual(popular.items.map(\.title), ["若依/RuoYi-Vue", "dromara/hutool"])
        XCTAssertEqual(popular.items.map(\.metrics), [Metrics(stars: 54307, forks: 23000), Metrics(stars: 30128, forks: 7600)])
        XCTAssertEqual(popular.items[1].tags, ["常用工具包"])
    }

    func testRowsAreFoundWhateverTheListIsCalled() throws {
        let page = Array(
            """
            <html><body><ul class="project-list">
              <li class="item card"><div><a class="title project-namespace-path" href="/a/one" title="A/One">A/One</a></div>
                <div class="stars-count" data-count="12">12</div></li>
              <li class="item card"><a class="project-namespace-path" href="/b/two">B/Two</a><p class="project-desc">second</p></li>
            </ul></body></html>
            """.utf8)
        let items = try parser.page(page, section: "featured", ranked: true).items
        XCTAssertEqual(items.map(\.id), ["repo/a/one", "repo/b/two"])
        XCTAssertEqual(items.map(\.metrics.stars), [12, nil], "each row keeps its own counts")
        XCTAssertEqual(items.map(\.summary), ["", "second"])
    }

    func testPagesThatAreNotTheList() throws {
        let empty = Array(
            #"<html><body><div id="git-discover-page"><div class="ui items explore-repo__list"></div></div></body></html>"#.utf8)
        XCTAssertEqual(try parser.page(empty, section: "latest", ranked: false).items, [], "an empty list is no error")
        let challenge = Array("<html><head><title>安全验证</title></head><body><script>location.reload()</script></body></html>".utf8)
        XCTAssertThrowsError(try parser.page(challenge, section: "featured", ranked: true)) { error in
            XCTAssertEqual(
                "\(error)",
                #"unexpected answer: not Gitee's explore page (no .item rows around a.project-namespace-path links); the page is titled "安全验证""#
            )
        }
        XCTAssertThrowsError(try parser.page([], section: "featured", ranked: true))
    }
}
