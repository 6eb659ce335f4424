import Foundation
import XCTest

@testable import Aggregator

final class LinearRegexTests: XCTestCase {
    /// Every supported construct agrees with ICU (NSRegularExpression) on every text.
    func testAgreesWithICUOnTheSupportedSyntax() throws {
        let patterns = [
            "swift", "^swift", "swift$", "^$", "a|b|c", "(ab)+c", "a*b", "a+?b", "colou?r", "x{2}", "x{2,}", "x{1,3}y", "[a-c]+d",
            "[^a-z]", "\\d+", "\\D", "\\w+", "\\W", "\\s", "\\S+", "\\bcat\\b", "\\Bcat", "\\Acat", "cat\\z", "cat\\Z", ".at",
            "a.c", "[.]", "\\.", "\\[ann\\]", "^\\[ann\\]", "(?:ab|cd)e", "(?<name>ab)c", "[\\d_]+", "[\\w-]+", "\\x41", "\\u4f60",
            "\\x{263A}", "数据库", "[数据]库", "v\\d+\\.\\d+(\\.\\d+)?", "(a|ab)(c|bcd)(d*)", "(a+)+$", "(x+x+)+y", "a{0}b", "\\t",
            "[a\\-z]", "[]a]", "[-a]", "a{,2}", "{", "a{2", "x*", "",
        ]
        let texts = [
            "", "swift", "Swift 6", "I like swift", "abc", "ababc", "b", "aab", "color", "colour", "xx", "xxxy", "abcd", "ABC", "123",
            "a1", "hello world", "cat", "concat", "cat\n", "bobcat", "a.c", "[ann] news", "abe", "cde", "cdex", "4f60 你好", "A",
            "☺ smile", "数据库", "据库", "v1.2", "v1.2.3", "abcd", "aaaaaaaaaaaa!", "xxxxxxxxxxxxxxy", "\t", "-", "]", "a{,2}", "{",
            "a{2", "z",
        ]
        for pattern in patterns {
            let linear = try LinearRegex(pattern)
            // ICU refuses a few braces that are literal here (as in POSIX): nothing to compare.
            guard let reference = try? NSRegularExpression(pattern: pattern) else { continue }
            for text in texts {
                let expected = reference.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
                XCTAssertEqual(linear.matches(text), expected, "/\(pattern)/ on \(text.debugDescription)")
            }
        }
    }

    func testCaseInsensitiveMatching() throws {
        XCTAssertTrue(try LinearRegex("SWIFT", caseInsensitive: true).matches("i like swift"))
        XCTAssertTrue(try LinearRegex("(?i)^\\[ANN\\]").matches("[ann] x"))
        XCTAssertTrue(try LinearRegex("(?i)[A-C]+x").matches("abcX"))
        XCTAssertTrue(try LinearRegex("(?i)Ärger").matches("ärger"))
        XCTAssertFalse(try LinearRegex("SWIFT").matches("swift"))
    }

    /// Patterns that take a backtracking engine seconds to minutes finish at once.
    func testPathologicalPatternsRunInLinearTime() throws {
        let text = String(repeating: "a", count: 5_000) + "!"
        let started = Date()
        for pattern in ["(a+)+$", "(a|aa)+$", "(a*)*b", "(a|a)*c", "^(a+)+$"] {
            XCTAssertFalse(try LinearRegex(pattern).matches(text), pattern)
        }
        // Generous: the five searches take milliseconds; a backtracking engine would take
        // longer than the age of the universe.
        XCTAssertLessThan(Date().timeIntervalSince(started), 20)
    }

    func testFeaturesThatNeedBacktrackingAreRefusedWithAReason() {
        for (pattern, message) in [
            ("(a)\\1", "back-references are not supported (filters match in linear time) at offset 3"),
            ("a(?=b)", "look-around is not supported (filters match in linear time) at offset 1"),
            ("(?<!a)b", "look-around is not supported (filters match in linear time) at offset 0"),
            ("[", "missing ] at offset 0"), ("(a", "missing ) at offset 0"), ("a)", "unmatched ) at offset 1"),
            ("*a", "nothing to repeat at offset 0"), ("a{3,1}", "repetition {3,1} counts down at offset 1"),
            ("(a{1000}){1000}", "pattern too large (over 20000 steps) at offset 0"),
            (String(repeating: "(", count: 200), "groups nested deeper than 100 at offset 100"),
        ] {
            XCTAssertThrowsError(try LinearRegex(pattern), pattern) { error in
                XCTAssertEqual("\(error)", message, pattern)
            }
        }
    }
}
