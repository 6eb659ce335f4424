import Aggregator
import XCTest

final class DisplayWidthTests: XCTestCase {
    func testWidths() {
        XCTAssertEqual(DisplayWidth.of("abc"), 3)
        XCTAssertEqual(DisplayWidth.of("你好"), 4)
        XCTAssertEqual(DisplayWidth.of("ｶﾀｶﾅ"), 4, "halfwidth katakana is narrow")
        XCTAssertEqual(DisplayWidth.of("ＡＢ"), 4, "fullwidth latin is wide")
        XCTAssertEqual(DisplayWidth.of("e\u{301}"), 1, "combining accent adds nothing")
        XCTAssertEqual(DisplayWidth.of("👍🏽"), 2)
        XCTAssertEqual(DisplayWidth.of("👩‍👩‍👧"), 2, "a ZWJ family is one cluster")
        XCTAssertEqual(DisplayWidth.of("한국어"), 6)
    }

    func testTruncateNeverSplitsClustersAndFitsWidth() {
        XCTAssertEqual(DisplayWidth.truncate("hello world", to: 8), "hello w…")
        XCTAssertEqual(DisplayWidth.truncate("你好世界", to: 6), "你好…")
        XCTAssertEqual(DisplayWidth.truncate("你好世界", to: 5), "你好…")
        XCTAssertEqual(DisplayWidth.truncate("ab👩‍👩‍👧cd", to: 4), "ab…")
        XCTAssertEqual(DisplayWidth.truncate("short", to: 10), "short")
        XCTAssertEqual(DisplayWidth.pad("你好", to: 6), "你好  ")
        XCTAssertEqual(DisplayWidth.pad("7", to: 3, alignRight: true), "  7")
        for width in 1...12 {
            XCTAssertLessThanOrEqual(DisplayWidth.of(DisplayWidth.truncate("混合 mixed 文字 text", to: width)), width)
        }
    }

    /// Printable ASCII is measured and cut by bytes; the answers are the grapheme walk's.
    func testTheASCIIShortcutAgreesWithTheClusterWalk() {
        for text in ["", "a", "plain title", "tab\there", "line\nbreak", "del\u{7F}", "~!@#$%^&*()_+{}|:\"<>?", "cr\r\nlf"] {
            XCTAssertEqual(DisplayWidth.of(text), text.reduce(0) { $0 + DisplayWidth.of($1) }, text.debugDescription)
        }
        let ascii = "The quick brown fox jumps over the lazy dog"
        for width in 1...50 {
            var walked = ""
            var used = 0
            for character in ascii where used + 1 <= width - 1 {
                walked.append(character)
                used += 1
            }
            XCTAssertEqual(DisplayWidth.truncate(ascii, to: width), ascii.count <= width ? ascii : walked + "…", "width \(width)")
        }
    }
}
