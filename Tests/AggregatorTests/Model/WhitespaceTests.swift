import Foundation
import XCTest

@testable import Aggregator

final class WhitespaceTests: XCTestCase {
    /// The native trim gives exactly what Foundation's does, for every kind of white space.
    func testTrimmingMatchesFoundation() {
        // Every scalar Foundation trims, and only those (U+200B is its one addition to Unicode's White_Space).
        for value in 0..<0x3100 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "\(scalar)"
            XCTAssertEqual(text.trimmingWhitespace(), text.trimmingCharacters(in: .whitespacesAndNewlines), "U+\(String(value, radix: 16))")
        }
        let spaces = [
            "", " ", "\t", "\n", "\r\n", "\u{85}", "\u{A0}", "\u{1680}", "\u{2003}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{3000}",
        ]
        let cores = ["", "x", "数据 库", "a\u{A0}b", "\u{200B}zero-width\u{200B}", "é", "🇨🇳"]
        for left in spaces {
            for core in cores {
                for right in spaces {
                    let text = left + core + right
                    XCTAssertEqual(text.trimmingWhitespace(), text.trimmingCharacters(in: .whitespacesAndNewlines), text.debugDescription)
                    XCTAssertEqual(text[...].trimmingWhitespace(), text.trimmingWhitespace(), "a Substring trims the same")
                }
            }
        }
    }

    /// The byte search finds a needle wherever it starts, and only a whole one.
    func testByteSearchFindsWholeNeedlesAnywhere() {
        let cases: [(String, Bool)] = [
            ("https://a.example/1", true), ("tag:a.example,2026:1", false), ("://", true), (":/", false), ("", false),
            ("a:/b://", true), (":::///", true), ("x://", true), ("数据://库", true), ("数据:/库/", false), ("a: //b", false),
            (String(repeating: ":/", count: 40) + "/", true), (String(repeating: ":/", count: 40), false),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(text.containsBytes("://"), expected, text)
            XCTAssertEqual(text.containsBytes("://"), text.contains("://"), "agrees with Foundation: \(text)")
        }
        XCTAssertTrue("anything".containsBytes(""), "an empty needle is everywhere")
        XCTAssertTrue("abc".containsBytes("abc"))
        XCTAssertFalse("ab".containsBytes("abc"), "a needle longer than the text")
    }
}
