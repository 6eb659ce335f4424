import Aggregator
import AggregatorTestSupport
import Providers
import XCTest

final class V2EXAPIv1ParserTests: XCTestCase {
    let parser = V2EXAPIv1Parser(provider: "v2ex", webURL: "https://www.v2ex.com")

    func fixture(_ name: String) throws -> [UInt8] {
        guard let bytes = SharedFixtures.bytes("v2ex/\(name)") else {
            throw XCTSkip("../shared/fixtures/v2ex/\(name) not found: shared fixtures are not beside this checkout")
        }
        return bytes
    }

    func testHotTopicsFromTheRealAPI() throws {
        let items = try parser.topics(try fixture("v1-topics-hot-2019-06.json"), section: "hot")
        XCTAssertEqual(
            items.map(\.id), ["578370", "578359", "578479", "578466", "578430", "578333", "578348", "578443", "578337", "578532"])
        let first = items[0]
        XCTAssertEqual(first.provider, "v2ex")
        XCTAssertEqual(first.section, "hot")
        XCTAssertEqual(first.kind, .topic)
        XCTAssertEqual(first.title, "当年高考没考好。偏科严重。只上了一个专科。30 岁了。想回去重新高考。可行吗？")
        XCTAssertEqual(first.url, "https://www.v2ex.com/t/578370")
        XCTAssertEqual(first.author, Author(name: "mzdblsw8", url: "https://www.v2ex.com/member/mzdblsw8"))
        XCTAssertEqual(first.published, Date(timeIntervalSince1970: 1_561_712_368))
        XCTAssertEqual(first.updated, Date(timeIntervalSince1970: 1_561_791_307), "last_touched: the last reply")
        XCTAssertEqual(first.metrics, Metrics(replies: 135))
        XCTAssertEqual(first.extra, ["node": "qna"])
        XCTAssertTrue(first.summary.hasPrefix("当年厌学情绪严重。数学空白没去做。英语没怎么考好。全靠其它科目 120 拉分上了一个专科。 毕业那年沉迷游戏没去专升本。"), first.summary)
        XCTAssertFalse(first.summary.contains("\n"))
        XCTAssertLessThanOrEqual(first.summary.count, ItemText.summaryLength)
        XCTAssertTrue(first.content?.hasPrefix("<p>当年厌学情绪严重。") == true, "the rendered HTML is kept as content")
        for item in items {
            XCTAssertTrue(item.url.hasPrefix("https://www.v2ex.com/t/"), "web URLs, never API URLs")
            XCTAssertFalse(item.url.contains("#"))
        }
    }

    func testLatestTopicsFromTheRealAPI() throws {
        let items = try parser.topics(try fixture("v1-topics-latest-2019-06.json"), section: "latest")
        XCTAssertEqual(items.count, 40)
        XCTAssertEqual(items[0].id, "578486")
        XCTAssertEqual(items[0].title, "短连接可以用 URL 路径传到某个控制的某个方法，那么长连接用什么方法可以把指定请求到指定的逻辑方法中? [ PHP ][swoole]")
        XCTAssertEqual(items[0].author?.name, "xoxo419")
        XCTAssertEqual(items[0].metrics.replies, 0)
        XCTAssertEqual(items[0].published, Date(timeIntervalSince1970: 1_561_773_160))
        XCTAssertEqual(Set(items.map(\.id)).count, 40)
    }

    func testRepliesFromTheRealAPI() throws {
        let items = try parser.replies(
            try fixture("v1-replies-show-2019-06.json"), topicID: 578_465, topicTitle: "Go 时间格式化", section: "topic/578465")
        XCTAssertEqual(items.count, 8)
        let first = items[0]
        XCTAssertEqual(first.id, "reply/7552623")
        XCTAssertEqual(first.kind, .reply)
        XCTAssertEqual(first.title, "Re: Go 时间格式化")
        XCTAssertEqual(first.url, "https://www.v2ex.com/t/578465#r_7552623")
        XCTAssertEqual(first.author?.name, "xiaocsl")
        XCTAssertEqual(first.published, Date(timeIntervalSince1970: 1_561_749_045))
        XCTAssertEqual(first.summary, "如果是要问格式化输出的话,也没几行代码,想偷懒的话的, Duration 相关操作,很多语音自带或者 github 找现成的库.")
        XCTAssertNil(first.updated)
        XCTAssertEqual(first.extra, ["topic": "578465"])
    }

    func testAChallengePageIsAClearErrorNotAnEmptyList() {
        let page = Array("<!DOCTYPE html><html><head><title>Just a moment...</title>".utf8)
        XCTAssertThrowsError(try parser.topics(page, section: "hot")) { error in
            XCTAssertEqual(
                error as? ProviderError,
                .unexpectedPayload(
                    detail: "not JSON (body starts: <!DOCTYPE html><html><head><title>Just a moment...</title>)"))
        }
        XCTAssertThrowsError(try parser.topics(Array(#"{"status": "error"}"#.utf8), section: "hot")) { error in
            XCTAssertEqual("\(error)", #"unexpected answer: wrong type at the top level (body starts: {"status": "error"})"#)
        }
        XCTAssertThrowsError(try parser.topics(Array(#"[{"id": 1}]"#.utf8), section: "hot")) { error in
            XCTAssertEqual("\(error)", #"unexpected answer: missing "title" at [0] (body starts: [{"id": 1}])"#)
        }
    }
}
