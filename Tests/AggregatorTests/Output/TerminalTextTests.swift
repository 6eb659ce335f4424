import Aggregator
import XCTest

final class TerminalTextTests: XCTestCase {
    func testEscapeSequencesPrintHarmlessly() {
        XCTAssertEqual(TerminalText.sanitize("a\u{1B}[2Jb"), "ab", "CSI clear screen")
        XCTAssertEqual(
            TerminalText.sanitize("\u{1B}]8;;https://evil.example\u{07}click\u{1B}]8;;\u{07}"), "click", "OSC 8 hyperlink with BEL")
        XCTAssertEqual(TerminalText.sanitize("\u{1B}]0;title\u{1B}\\x"), "x", "OSC terminated by ST")
        XCTAssertEqual(TerminalText.sanitize("red\u{1B}[31;1mtext\u{1B}[0m"), "redtext", "SGR")
        XCTAssertEqual(TerminalText.sanitize("x\u{9B}2Jy"), "xy", "C1 CSI")
        XCTAssertEqual(TerminalText.sanitize("p\u{1B}Pq#0;2;0;0;0\u{1B}\\q"), "pq", "DCS (sixel)")
        XCTAssertEqual(TerminalText.sanitize("a\u{1B}(Bb\u{1B}7c"), "abc", "charset and save-cursor escapes")
        XCTAssertEqual(TerminalText.sanitize("unterminated \u{1B}]8;;never ends"), "unterminated")
    }

    func testControlAndBidiCharactersAreRemoved() {
        XCTAssertEqual(TerminalText.sanitize("a\u{07}b\u{08}c\u{7F}d\u{85}e"), "abcde")
        XCTAssertEqual(TerminalText.sanitize("user\u{202E}gpj.exe"), "usergpj.exe", "right-to-left override")
        XCTAssertEqual(TerminalText.sanitize("a\u{2066}b\u{2069}"), "ab")
    }

    func testWhitespaceHandling() {
        XCTAssertEqual(TerminalText.sanitize("  line one\n\tline   two \r\n"), "line one line two")
        XCTAssertEqual(TerminalText.sanitize("one\n\ntwo\r\nthree", singleLine: false), "one\n\ntwo\nthree")
    }

    /// Clean text is returned as it is without being rebuilt: whatever the text, that
    /// shortcut gives what rebuilding gives.
    func testTheCleanTextShortcutAgreesWithRebuilding() {
        let pieces = [
            "a", " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{1B}", "[", "\u{7F}", "\u{80}", "\u{85}", "\u{9B}", "\u{9F}", "\u{A0}",
            "\u{BF}", "\u{202A}", "\u{202E}", "\u{202F}", "\u{2029}", "\u{2065}", "\u{2066}", "\u{2069}", "\u{206A}", "é", "中", "\u{0}",
        ]
        var texts = [""]
        var layer = [""]
        for _ in 0..<3 {
            layer = layer.flatMap { prefix in pieces.map { prefix + $0 } }
            texts += layer
        }
        var unchanged = 0
        // Each also between letters, so that white space inside a text is tried, not only at its ends.
        for text in texts + texts.map({ "a" + $0 + "b" }) {
            for singleLine in [true, false] {
                let expected = TerminalText.rebuilt(text, singleLine: singleLine)
                XCTAssertEqual(TerminalText.sanitize(text, singleLine: singleLine), expected, "\(Array(text.unicodeScalars))")
                if expected == text { unchanged += 1 }
            }
        }
        XCTAssertGreaterThan(unchanged, 2_000, "clean texts are among them")
    }

    func testOrdinaryTextIsUntouched() {
        for text in ["你好，世界", "Café ☕️ 👩‍👩‍👧", "Ünïcödé — “quotes”", "テスト"] {
            XCTAssertEqual(TerminalText.sanitize(text), text)
        }
    }

    func testSummariesAreCutOnGraphemeBoundaries() {
        let family = "👩‍👩‍👧"
        let long = String(repeating: "数据库" + family, count: 200)
        let summary = ItemText.summary(long)
        XCTAssertEqual(summary.count, ItemText.summaryLength)
        XCTAssertTrue(summary.hasSuffix("…"))
        XCTAssertTrue(long.hasPrefix(String(summary.dropLast())), "no cluster is split: the cut text is a prefix of the original")
        XCTAssertEqual(
            ItemText.summary("<p>Tags <b>stripped</b> &amp; entities &#x4F60; decoded</p>"), "Tags stripped & entities 你 decoded")
        XCTAssertEqual(ItemText.summary("plain & simple"), "plain & simple")
    }
}
