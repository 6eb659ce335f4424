import Aggregator
import Providers
import XCTest

/// `aggr add URL`'s recognition: each built-in type knows its own site's pages.
final class SiteRecognizerTests: XCTestCase {
    func match(_ address: String) throws -> RecognizedPage? {
        try BuiltinProviders.registry.recognize(address)
    }

    func testRealSiteAddresses() throws {
        let table: [(String, String, String)] = [
            ("https://www.v2ex.com/", "v2ex", "hot"),
            ("https://www.v2ex.com/?tab=tech", "v2ex", "tab/tech"),
            ("https://www.v2ex.com/recent", "v2ex", "latest"),
            ("https://www.v2ex.com/go/swift", "v2ex", "node/swift"),
            ("https://v2ex.com/t/1147555#reply29", "v2ex", "topic/1147555"),
            ("https://www.v2ex.com/member/Livid", "v2ex", "member/Livid"),
            ("https://github.com/swiftlang/swift", "github", "releases/swiftlang/swift"),
            ("https://github.com/swiftlang/swift/releases/tag/swift-6.3.1-RELEASE", "github", "releases/swiftlang/swift"),
            ("https://github.com/PyGithub/PyGithub/issues", "github", "issues/PyGithub/PyGithub"),
            ("https://github.com/PyGithub/PyGithub/pulls", "github", "pulls/PyGithub/PyGithub"),
            ("https://github.com/PyGithub/PyGithub/issues/3042", "github", "issue/PyGithub/PyGithub/3042"),
            ("https://github.com/rsn491/PyGithub/pull/1", "github", "issue/rsn491/PyGithub/1"),
            ("https://github.com/xobjectz/objx/commits/master", "github", "commits/xobjectz/objx"),
            ("https://github.com/jacquev6", "github", "user/jacquev6"),
            ("https://github.com/trending", "github", "trending"),
            ("https://github.com/trending/swift?since=weekly", "github", "trending/swift?since=weekly"),
            ("https://dribbble.com/shots/popular?timeframe=month", "dribbble", "popular?timeframe=month"),
            ("https://dribbble.com/simplebits", "dribbble", "user/simplebits"),
            ("https://dribbble.com/search/shots/recent?q=material", "dribbble", "search/material"),
        ]
        for (address, type, section) in table {
            XCTAssertEqual(try match(address), RecognizedPage(type: type, section: section), address)
        }
        XCTAssertNil(try match("https://blog.example.com/feed.xml"), "other sites are tried as feeds")
        XCTAssertEqual(
            try match("https://gitee.com/kit101/drone-yml-test"),
            RecognizedPage(type: "gitee", section: "releases/kit101/drone-yml-test"))
        XCTAssertEqual(
            try match("https://gitee.com/kit101/drone-yml-test/issues"),
            RecognizedPage(type: "gitee", section: "issues/kit101/drone-yml-test"))
        XCTAssertEqual(try match("https://gitee.com/kit101"), RecognizedPage(type: "gitee", section: "user/kit101"))
        for (address, section) in [
            ("https://gitee.com/explore", "featured"), ("https://gitee.com/explore/all?order=recommend", "featured"),
            ("https://gitee.com/explore/all?order=starred&page=2", "popular"), ("https://gitee.com/explore/all?order=latest", "latest"),
            ("https://gitee.com/kit101/drone-yml/issues/I4CD5P", "issue/kit101/drone-yml/I4CD5P"),
            ("https://gitee.com/kit101/drone-yml-test/tags", "tags/kit101/drone-yml-test"),
        ] {
            XCTAssertEqual(try match(address), RecognizedPage(type: "gitee", section: section), address)
        }
        XCTAssertThrowsError(try match("https://gitee.com/explore/ai")) { error in
            XCTAssertEqual("\(error)", "Gitee's explore categories are not sections; featured, popular and latest (/explore/all) are")
        }
    }

    func testAdvertisedFeedsResolveAgainstThePage() {
        let page =
            #"<html><head><link rel="alternate" type="application/rss+xml" href="/feed.xml"><link rel="stylesheet" href="/s.css"></head></html>"#
        XCTAssertEqual(
            FeedDiscovery.advertisedFeeds(in: Array(page.utf8), pageURL: "https://blog.example.com/posts/"),
            ["https://blog.example.com/feed.xml"])
    }
}
