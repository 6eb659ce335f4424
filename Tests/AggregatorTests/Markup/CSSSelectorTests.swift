import Aggregator
import AggregatorTestSupport
import XCTest

final class CSSSelectorTests: XCTestCase {
    func html(_ text: String) throws -> MarkupDocument { try MarkupDocument.html(Array(text.utf8)) }

    func ids(_ document: MarkupDocument, _ selector: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        try document.select(css: selector).map { $0.attribute("id") ?? "?" }
    }

    let sample = """
        <html><body>
          <div id="a" class="cell item"><span id="a1" class="item_title"><a id="a1x" class="topic-link" href="/t/1">One</a></span></div>
          <div id="b" class="cell"><p id="b1" lang="en-US" data-x="hello world">x</p><p id="b2">y</p><p id="b3">z</p></div>
          <div id="c" class="cellular"><a id="c1" href="https://x.example/feed.xml">feed</a></div>
        </body></html>
        """

    func testEverySupportedForm() throws {
        let document = try html(sample)
        XCTAssertEqual(try ids(document, "div"), ["a", "b", "c"])
        XCTAssertEqual(try ids(document, "#b"), ["b"])
        XCTAssertEqual(try ids(document, ".cell"), ["a", "b"], "class matches whole words only")
        XCTAssertEqual(try ids(document, "div.cell.item"), ["a"])
        XCTAssertEqual(try ids(document, "[lang]"), ["b1"])
        XCTAssertEqual(try ids(document, "[id=b2]"), ["b2"])
        XCTAssertEqual(try ids(document, "a[href^=\"https://\"]"), ["c1"])
        XCTAssertEqual(try ids(document, "a[href$='.xml']"), ["c1"])
        XCTAssertThrowsError(try ids(document, "[data-x*=lo\\ w]"), "CSS escapes are not supported; quote the value")
        XCTAssertEqual(try ids(document, "[data-x*='lo w']"), ["b1"])
        XCTAssertEqual(try ids(document, "[data-x~=world]"), ["b1"])
        XCTAssertEqual(try ids(document, "div a"), ["a1x", "c1"])
        XCTAssertEqual(try ids(document, "div > a"), ["c1"])
        XCTAssertEqual(try ids(document, "span.item_title > a.topic-link"), ["a1x"])
        XCTAssertEqual(try ids(document, "#b1 + p"), ["b2"])
        XCTAssertEqual(try ids(document, "#b1 ~ p"), ["b2", "b3"])
        XCTAssertEqual(try ids(document, "p:first-child"), ["b1"])
        XCTAssertEqual(try ids(document, "p:last-child"), ["b3"])
        XCTAssertEqual(try ids(document, "p:nth-child(2)"), ["b2"])
        XCTAssertEqual(try ids(document, "p:nth-child(odd)"), ["b1", "b3"])
        XCTAssertEqual(try ids(document, "p:nth-child(2n+1)"), ["b1", "b3"])
        XCTAssertEqual(try ids(document, "p:nth-child(-n+2)"), ["b1", "b2"])
        XCTAssertEqual(try ids(document, "div:not(.cell)"), ["c"])
        XCTAssertEqual(try ids(document, "#c1, #a, #zzz"), ["a", "c1"], "groups come back in document order")
        XCTAssertEqual(try ids(document, "*[id^=b]"), ["b", "b1", "b2", "b3"])
    }

    func testRememberedTranslationsKeepRelativeAndAbsoluteApart() throws {
        for _ in 0..<2 {
            XCTAssertEqual(
                try CSSSelector.xpath(for: "div.cell > a", relative: false), try CSSSelector.xpath(for: "div.cell > a", relative: false))
            XCTAssertNotEqual(
                try CSSSelector.xpath(for: "div.cell > a", relative: true), try CSSSelector.xpath(for: "div.cell > a", relative: false))
            XCTAssertThrowsError(try CSSSelector.xpath(for: "div >", relative: true), "a bad selector fails every time")
        }
    }

    func testSelectionRelativeToANode() throws {
        let document = try html(sample)
        let b = try XCTUnwrap(document.select(css: "#b").first)
        XCTAssertEqual(try b.select(css: "p").map { $0.attribute("id")! }, ["b1", "b2", "b3"])
        XCTAssertEqual(try b.select(css: "a").count, 0, "relative selection stays under the node")
        XCTAssertEqual(try b.first(css: "p:nth-child(3)")?.text, "z")
    }

    func testQuotesInValuesCannotBreakTheExpression() throws {
        let document = try html(#"<p id="q" title="it's &quot;fine&quot;">x</p>"#)
        XCTAssertEqual(try ids(document, #"[title='it\'s "fine"']"#), ["q"])
    }

    func testUnsupportedSyntaxNamesTheColumn() {
        let cases: [(String, String)] = [
            ("a:hover", "invalid CSS selector at column 2: unsupported pseudo-class ':hover'\n  a:hover\n   ^"),
            ("div >", "invalid CSS selector at column 6: expected a selector after the combinator\n  div >\n       ^"),
            ("a[href", "invalid CSS selector at column 7: expected ']' or an operator such as '='\n  a[href\n        ^"),
            ("a[href|=en]", "invalid CSS selector at column 7: unsupported attribute operator '|='\n  a[href|=en]\n        ^"),
            ("#", "invalid CSS selector at column 2: expected a name after '#'\n  #\n   ^"),
            ("a ! b", "invalid CSS selector at column 3: unexpected '!'\n  a ! b\n    ^"),
            ("p:nth-child(x)", "invalid CSS selector at column 2: invalid :nth-child argument 'x'\n  p:nth-child(x)\n   ^"),
            ("", "invalid CSS selector at column 1: expected a selector\n  \n  ^"),
        ]
        for (selector, message) in cases {
            XCTAssertThrowsError(try CSSSelector.xpath(for: selector, relative: false), selector) { error in
                XCTAssertEqual("\(error)", message, selector)
            }
        }
    }

    func testSelectorsOnRealV2EXAndGitHubPages() throws {
        guard let node = SharedFixtures.bytes("v2ex/html-node-python-2023-05.html"),
            let home = SharedFixtures.bytes("v2ex/html-home-tab-all-fragment-2020-04.html"),
            let topic = SharedFixtures.bytes("v2ex/html-topic-1147555-2025-07.html"),
            let trending = SharedFixtures.bytes("github/html-trending-daily-2023-05.html")
        else { throw XCTSkip("../shared/fixtures not found beside this checkout") }

        let nodePage = try MarkupDocument.html(node)
        let rows = try nodePage.select(css: "div.cell[class*=' t_']")
        XCTAssertEqual(rows.count, 20)
        let links = try nodePage.select(css: "span.item_title > a.topic-link")
        XCTAssertEqual(links.count, 20)
        XCTAssertEqual(links[0].attribute("id"), "topic-link-940347")
        XCTAssertEqual(links[0].trimmedText, "pacman 把 Python 系统解释器更新，导致虚拟环境的软链接失效")
        XCTAssertEqual(try rows[0].first(css: "a.topic-link")?.attribute("id"), "topic-link-940347")

        XCTAssertEqual(try MarkupDocument.html(home).select(css: "div.cell.item").count, 53)
        let topicPage = try MarkupDocument.html(topic)
        XCTAssertEqual(try topicPage.select(css: "div[id^=r_]").count, 29)
        XCTAssertEqual(try topicPage.select(css: "div.header h1").first?.trimmedText, "重磅更新！ Claude Code 引入大杀器 sub-agents")
        XCTAssertEqual(try MarkupDocument.html(trending).select(css: "article.Box-row").count, 25)
    }

    func testXMLWithNamespacesThroughTheNodeAPI() throws {
        guard let bytes = SharedFixtures.bytes("github/commits-atom-xobjectz-objx-2024-03.xml") else {
            throw XCTSkip("../shared/fixtures not found beside this checkout")
        }
        let document = try MarkupDocument.xml(bytes)
        let root = try XCTUnwrap(document.root)
        XCTAssertEqual(root.name, "feed")
        XCTAssertEqual(root.namespace, "http://www.w3.org/2005/Atom")
        XCTAssertEqual(root.children("entry", namespace: "http://www.w3.org/2005/Atom").count, 20)
        XCTAssertEqual(try document.select(xpath: "//*[local-name()='entry']").count, 20)
        XCTAssertThrowsError(try document.select(xpath: "//[")) { error in
            XCTAssertEqual(error as? MarkupError, .badXPath(expression: "//["))
        }
    }
}
