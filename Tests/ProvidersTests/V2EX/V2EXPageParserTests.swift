import Aggregator
import AggregatorTestSupport
import Providers
import XCTest

final class V2EXPageParserTests: XCTestCase {
    /// The moment the 2020 and 2023 pages are read "at"; only relative dates depend on it.
    let serverDate = UpstreamDate.parse("2023-05-16 14:40:00 +08:00")!
    var parser: V2EXPageParser { V2EXPageParser(provider: "v2ex", webURL: "https://www.v2ex.com", serverDate: serverDate) }

    func fixture(_ name: String) throws -> [UInt8] {
        guard let bytes = SharedFixtures.bytes("v2ex/\(name)") else {
            throw XCTSkip("../shared/fixtures/v2ex/\(name) not found: shared fixtures are not beside this checkout")
        }
        return bytes
    }

    func iso(_ date: Date) -> String { ISOTimestamp.format(date) }

    func testNodePages() throws {
        let cases: [(String, String, Int, (String, String, String, Int, String), (String, String, String, Int, String))] = [
            (
                "html-node-python-2023-05.html", "V2EX › Python", 20,
                ("940347", "pacman 把 Python 系统解释器更新，导致虚拟环境的软链接失效", "vituralfuture", 5, "2023-05-16T03:53:18Z"),
                ("935970", "问一个 Python 枚举类的问题", "Ricardoo", 14, "2023-04-27T17:10:10Z")
            ),
            (
                "html-node-qna-2023-05.html", "V2EX › 问与答", 20,
                ("940306", "说 R.I.P 是不是一种母语羞涩的表现？", "lran9527", 85, "2023-05-16T05:58:42Z"),
                ("940298", "老台式求推荐升级", "iblessyou", 28, "2023-05-16T05:34:49Z")
            ),
            (
                "html-node-programmer-2026-01.html", "V2EX › 程序员", 20,
                ("1188165", "System 一个月上传流量 800GB 感觉不正常", "qaqtangxiaoqi", 2, "2026-01-25T06:43:23Z"),
                ("1187774", "vscode 怎么使用 claude", "mr123villain", 3, "2026-01-24T00:41:53Z")
            ),
        ]
        for (file, title, count, first, last) in cases {
            let page = try parser.topicList(try fixture(file), section: "node/x")
            XCTAssertEqual(page.title, title, file)
            XCTAssertEqual(page.items.count, count, file)
            for (item, expected) in [(page.items[0], first), (page.items[count - 1], last)] {
                XCTAssertEqual(item.id, expected.0, file)
                XCTAssertEqual(item.title, expected.1, file)
                XCTAssertEqual(item.author?.name, expected.2, file)
                XCTAssertEqual(item.author?.url, "https://www.v2ex.com/member/\(expected.2)", file)
                XCTAssertEqual(item.metrics.replies, expected.3, file)
                XCTAssertEqual(iso(item.published), expected.4, "the title attribute's absolute time: \(file)")
                XCTAssertEqual(item.url, "https://www.v2ex.com/t/\(expected.0)", "no #reply suffix: \(file)")
            }
        }
    }

    func testTabPagesWithRelativeTimes() throws {
        let fragment = try parser.topicList(try fixture("html-home-tab-all-fragment-2020-04.html"), section: "tab/all")
        XCTAssertEqual(fragment.title, "V2EX › 全部")
        XCTAssertEqual(fragment.items.count, 53)
        XCTAssertEqual(fragment.items[0].id, "662162")
        XCTAssertEqual(fragment.items[0].title, "微信这么难用，为什么不学习一下其他的聊天软件的设计？")
        XCTAssertEqual(fragment.items[0].author?.name, "GTD")
        XCTAssertEqual(fragment.items[0].metrics.replies, 24)
        XCTAssertEqual(fragment.items[0].extra["node"], "qna")
        XCTAssertEqual(iso(fragment.items[0].published), "2023-05-16T06:40:00Z", "刚刚: the server's Date")
        XCTAssertEqual(fragment.items[52].id, "662192")
        XCTAssertEqual(iso(fragment.items[52].published), "2023-05-16T05:55:00Z", "45 分钟前")

        let saved = try parser.topicList(try fixture("html-home-tab-all-full-saved-2017-04.html"), section: "tab/all")
        XCTAssertEqual(saved.items.count, 51)
        XCTAssertEqual(saved.items[0].id, "355174")
        XCTAssertEqual(saved.items[0].title, "提醒 V 友, 防不胜防的钓鱼网址")
        XCTAssertEqual(saved.items[0].extra["node"], "programmer")
        XCTAssertNil(saved.items[0].extra["avatar"], "a saved page's ./V2EX_files path is not a URL")
        XCTAssertEqual(saved.items[50].id, "355129")
        XCTAssertEqual(saved.items[50].author?.name, "dven")
    }

    func testTopicPages() throws {
        let logged = try parser.topicPage(try fixture("html-topic-1147555-2025-07.html"), topicID: 1_147_555, section: "topic/1147555")
        XCTAssertEqual(logged.count, 30)
        XCTAssertEqual(logged[0].title, "重磅更新！ Claude Code 引入大杀器 sub-agents")
        XCTAssertEqual(logged[0].author?.name, "terryso")
        XCTAssertEqual(iso(logged[0].published), "2025-07-25T01:30:53Z")
        XCTAssertEqual(logged[0].metrics, Metrics(replies: 29, views: 1_929))
        XCTAssertEqual(logged[0].extra, ["node": "programmer"])
        XCTAssertTrue(logged[0].summary.hasPrefix("今天，我们要聊一个激动人心的话题——Anthropic 为其 AI 编程助手"))
        XCTAssertEqual(logged[1].id, "reply/16532903")
        XCTAssertEqual(logged[1].url, "https://www.v2ex.com/t/1147555#r_16532903")
        XCTAssertEqual(logged[1].author?.name, "samzong")
        XCTAssertEqual(iso(logged[1].published), "2025-07-25T01:34:14Z")
        XCTAssertEqual(logged[1].summary, "这个感觉是 cursor 的自定义模式？")
        XCTAssertEqual(logged[1].extra, ["floor": "1", "topic": "1147555"])
        XCTAssertEqual(logged[29].id, "reply/16535109")
        XCTAssertEqual(logged[29].author?.name, "CEBBCAT")

        let old = try parser.topicPage(try fixture("html-topic-664539-2020-04.html"), topicID: 664_539, section: "topic/664539")
        XCTAssertEqual(old.count, 25)
        XCTAssertEqual(old[0].title, "百度网盘道歉 将对“用户激励计划”全部用户做取消处理")
        XCTAssertEqual(old[0].author?.name, "alphadog619")
        XCTAssertEqual(iso(old[0].published), "2023-05-16T01:25:00Z", "5 小时 15 分钟前")
        XCTAssertEqual(old[0].metrics, Metrics(replies: 24, views: 2_989))
        XCTAssertEqual(old[1].author?.name, "msn1983aa")
        XCTAssertEqual(iso(old[1].published), "2023-05-16T01:33:00Z")
        XCTAssertEqual(old[24].id, "reply/8857477")

        let mobile = try parser.topicPage(
            try fixture("html-topic-907093-mobile-noreplies-2023-01.html"), topicID: 907_093, section: "topic/907093")
        XCTAssertEqual(mobile.count, 1)
        XCTAssertEqual(mobile[0].title, "从昨天开始,win11 连接代理时断时续,请问可能的原因?")
        XCTAssertEqual(mobile[0].author?.name, "a33291")
        XCTAssertEqual(iso(mobile[0].published), "2023-05-16T06:36:00Z", "By a33291 at 4 分钟前")
        XCTAssertEqual(mobile[0].metrics, Metrics(replies: 0, views: 19))
    }

    func testPlanesPage() throws {
        let nodes = try parser.planes(try fixture("html-planes-2023-05.html"))
        XCTAssertEqual(nodes.count, 1_137, "the page says 1137 nodes")
        XCTAssertEqual(nodes.first, V2EXPageParser.PlaneNode(plane: "混沌海", name: "earth", title: "地球"))
        XCTAssertEqual(nodes.last, V2EXPageParser.PlaneNode(plane: "法印城", name: "cmb", title: "招商银行"))
        XCTAssertTrue(nodes.contains(V2EXPageParser.PlaneNode(plane: "混沌海", name: "qna", title: "问与答")))
    }

    func testSignInFormAndChallengePagesAreErrorsNotEmptyLists() throws {
        XCTAssertThrowsError(try parser.topicList(try fixture("html-signin-form-fragment-2019-02.html"), section: "tab/members")) { error in
            XCTAssertEqual(
                error as? ProviderError,
                .needsSignIn(
                    detail: "V2EX answered with its sign-in form; this section is login-only or needs a token (token_env)"))
        }
        let challenge = Array(
            "<html><head><title>Just a moment...</title></head><body><form id=\"challenge-form\"></form></body></html>".utf8)
        XCTAssertThrowsError(try parser.topicList(challenge, section: "tab/hot")) { error in
            XCTAssertEqual("\(error)", "blocked by V2EX's CDN (a challenge page instead of content)")
        }
    }

    func testAPIv2NodeAndV1MemberDocuments() throws {
        let v2 = V2EXAPIv2Parser(provider: "v2ex", webURL: "https://www.v2ex.com")
        let python = try v2.node(try fixture("v2-nodes-python.json"), section: "node/python")
        XCTAssertEqual(python.id, 90)
        XCTAssertEqual(python.title, "Python")
        XCTAssertEqual(python.topics, 15_456)
        XCTAssertEqual(try v2.node(try fixture("v2-nodes-qna.json"), section: "node/qna").title, "问与答")
        let member = try V2EXMember.parse(try fixture("v1-members-show-zhuzhibin.json"))
        XCTAssertEqual(member.id, 321_355)
        XCTAssertEqual(member.username, "zhuzhibin")
        XCTAssertEqual(member.status, "found")
        XCTAssertEqual(
            member.avatarLarge, "https://cdn.v2ex.com/avatar/cdaf/fc26/321355_mini.png?m=1547464529", "protocol-relative made https")
    }
}
