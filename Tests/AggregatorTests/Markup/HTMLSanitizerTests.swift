import Aggregator
import XCTest

final class HTMLSanitizerTests: XCTestCase {
    func sanitize(_ html: String) -> String { HTMLSanitizer.sanitize(html, baseURL: "https://forum.example/t/1") }

    func testHarmlessMarkupSurvivesAndLinksAreResolvedAndFenced() {
        XCTAssertEqual(sanitize("<p>Hello <b>world</b> <code>x &lt; y</code></p>"), "<p>Hello <b>world</b> <code>x &lt; y</code></p>")
        XCTAssertEqual(
            sanitize(#"<a href="/member/bob" class="x" style="color:red">bob</a>"#),
            #"<a href="https://forum.example/member/bob" rel="noopener noreferrer nofollow">bob</a>"#)
        XCTAssertEqual(
            sanitize(#"<img src="//cdn.example/a.png" alt="A" width="40" onload="x()">"#),
            #"<img alt="A" src="https://cdn.example/a.png" width="40" referrerpolicy="no-referrer" loading="lazy">"#)
        XCTAssertEqual(sanitize("<ul><li>一</li><li>二</li></ul>"), "<ul><li>一</li><li>二</li></ul>")
    }

    func testScriptsEventHandlersAndDangerousURLsAreGone() {
        let cases: [(String, String)] = [
            ("<p>a<script>alert(1)</script>b</p>", "<p>ab</p>"),
            ("<img src=x onerror=alert(1)>", #"<img src="https://forum.example/t/x" referrerpolicy="no-referrer" loading="lazy">"#),
            (#"<a href="javascript:alert(1)">x</a>"#, #"<a rel="noopener noreferrer nofollow">x</a>"#),
            ("<a href=\"java\tscript:alert(1)\">x</a>", #"<a rel="noopener noreferrer nofollow">x</a>"#),
            (#"<a href=" JAVASCRIPT:alert(1)">x</a>"#, #"<a rel="noopener noreferrer nofollow">x</a>"#),
            (#"<a href="data:text/html,<script>alert(1)</script>">x</a>"#, #"<a rel="noopener noreferrer nofollow">x</a>"#),
            (#"<img src="data:image/svg+xml,<svg onload=alert(1)>">"#, ""),
            (
                #"<img src="data:image/png;base64,iVBOR">"#,
                #"<img src="data:image/png;base64,iVBOR" referrerpolicy="no-referrer" loading="lazy">"#
            ),
            ("<iframe src=\"https://evil.example\"></iframe><object data=x></object><embed src=x>", ""),
            ("<style>body{display:none}</style><svg onload=alert(1)><circle/></svg><math><mi>x</mi></math>", ""),
            ("<form action=/steal><input name=p><button>go</button></form>", ""),
            ("<div onclick=\"x()\" id=\"main\">hi</div>", "<div>hi</div>"),
            ("<!-- comment --><p>t</p>", "<p>t</p>"),
            ("<custom-tag>kept text</custom-tag>", "kept text"),
            ("<p title=\"a&quot; onmouseover=&quot;x\">t</p>", "<p>t</p>"),
            ("<abbr title='\"><script>x</script>'>t</abbr>", "<abbr title=\"&quot;&gt;&lt;script&gt;x&lt;/script&gt;\">t</abbr>"),
        ]
        for (input, expected) in cases {
            XCTAssertEqual(sanitize(input), expected, input)
        }
    }

    func testDeepNestingIsFlattenedNotRecursedThrough() {
        // Within libxml2's own depth limit (256) the text survives, flattened below ours.
        let deep = String(repeating: "<div>", count: 200) + "deep text" + String(repeating: "</div>", count: 200)
        let output = sanitize(deep)
        XCTAssertTrue(output.contains("deep text"))
        XCTAssertLessThanOrEqual(output.components(separatedBy: "<div>").count - 1, HTMLSanitizer.maximumDepth)
        // Far deeper: libxml2 stops nesting; nothing crashes and no markup escapes.
        let deeper = String(repeating: "<span>", count: 100_000) + "<script>x</script>"
        XCTAssertFalse(sanitize(deeper).contains("<script"))
    }

    func testPlainTextIsEscaped() {
        XCTAssertEqual(HTMLSanitizer.escape(#"<a href="x">'&'</a>"#), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
        XCTAssertEqual(sanitize(""), "")
    }
}
