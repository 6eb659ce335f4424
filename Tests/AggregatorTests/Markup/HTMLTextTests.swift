import XCTest

@testable import Aggregator

final class HTMLTextTests: XCTestCase {
    func testBlocksBecomeLinesEntitiesDecodeScriptsDrop() {
        let html = """
            <div><p>First&nbsp;paragraph &amp; more</p><script>alert(1)</script>
            <ul><li>one</li><li>two</li></ul><p>Line<br>break &#x4F60;&#22909;</p><style>p{}</style></div>
            """
        XCTAssertEqual(HTMLText.plainText(html), "First paragraph & more\n\n• one\n• two\n\nLine\nbreak 你好")
    }

    func testPlainTextPassesThroughTidied() {
        XCTAssertEqual(HTMLText.plainText("  just   text \n\n\n more "), "just text\n\nmore")
    }

    func testBrokenMarkupStillYieldsText() {
        XCTAssertEqual(HTMLText.plainText("<p>unclosed <b>bold <i>text"), "unclosed bold text")
    }

    func testTidyCollapsesSpacesAndBlankLines() {
        for (text, tidy) in [
            ("  a \t b\u{A0}\u{A0}c  ", "a b c"), ("\n\n  first\n\n\n  \nsecond \n\n", "first\n\nsecond"),
            ("one\r\ntwo", "one\ntwo"), ("数据\u{A0}库 \n é", "数据 库\né"), ("\u{C2}x", "\u{C2}x"), ("", ""), (" \n \t ", ""),
            ("a\nb", "a\nb"),
        ] {
            XCTAssertEqual(HTMLText.tidy(text), tidy, text.debugDescription)
        }
    }
}
