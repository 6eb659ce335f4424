import Aggregator
import Foundation
import XCTest

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
}
