import XCTest

@testable import Aggregator

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

    /// Scalars that stand alone are measured one by one; every answer is the grapheme walk's.
    func testStandaloneScalarsAgreeWithTheClusterWalk() {
        var standalone: [Unicode.Scalar] = []
        for value in UInt32(0)...0x3_FFFF {
            guard let width = DisplayWidth.standaloneWidth(value) else { continue }
            guard let scalar = Unicode.Scalar(value) else { return XCTFail("U+\(String(value, radix: 16)) is no scalar") }
            XCTAssertEqual(width, DisplayWidth.of(Character(scalar)), "U+\(String(value, radix: 16))")
            standalone.append(scalar)
        }
        XCTAssertGreaterThan(standalone.count, 30_000)
        func walked(_ text: String, fitting width: Int) -> String {
            var result = ""
            var used = 0
            for character in text {
                let next = DisplayWidth.of(character)
                if used + next > width { break }
                result.append(character)
                used += next
            }
            return result
        }
        // Mixed titles drawn over the whole set, the same every run.
        let drawn = (0..<200).map { title in
            String(String.UnicodeScalarView((0..<title % 25).map { standalone[(title * 7_919 + $0 * 104_729) % standalone.count] }))
        }
        let titles = ["V2EX 上的 “Swift 6” 讨论…", "ソフトウェア開発の話", "한국어 제목 — 테스트", "Ｆｕｌｌ　ｗｉｄｔｈ", "café über straße"] + drawn
        for title in titles {
            let cluster = title.reduce(0) { $0 + DisplayWidth.of($1) }
            XCTAssertEqual(DisplayWidth.of(title), cluster, title)
            for width in 0...cluster + 1 {
                XCTAssertEqual(DisplayWidth.prefix(title, fitting: width), walked(title, fitting: width), "\(title) in \(width)")
                let truncated = DisplayWidth.truncate(title, to: width)
                XCTAssertEqual(
                    truncated, width == 0 ? "" : cluster <= width ? title : walked(title, fitting: width - 1) + "…", "\(title) in \(width)")
            }
        }
        // A combining mark after a standalone scalar sends the text to the cluster walk.
        XCTAssertEqual(DisplayWidth.of("か\u{3099}な"), 4)
        XCTAssertEqual(DisplayWidth.truncate("e\u{301}e\u{301}e\u{301}", to: 2), "e\u{301}…")
    }
}
