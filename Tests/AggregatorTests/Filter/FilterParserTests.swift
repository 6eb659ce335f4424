import Aggregator
import XCTest

final class FilterParserTests: XCTestCase {
    func testValidExpressionsParse() throws {
        let valid = [
            #"title ~ "swift""#, #"title ~* "SWIFT""#, #"title ~ /^\[ann\]/i"#, #"title !~ "nightly""#,
            #"author = "alice" and replies > 5"#,
            #"not (kind in [reply, event]) or tags has "release""#, "age < 2d", "published >= 2026-11-01", "published > 2d",
            "stars >= 1000 and forks < 50.5", #"node = "swift" or repo = "o/r" or language = "Swift""#, "unread", "unread = false",
            #"summary contains "并发""#, #"title = "它说：\"你好\"""#, #"title = 'single \'quoted\''"#, "provider in [v2ex, github]",
            #"(title ~ "a" or title ~ "b") and not unread"#, #"tags contains "rel""#, #"title = "\u4f60""#,
        ]
        for text in valid {
            XCTAssertNoThrow(try FilterParser.parse(text), text)
        }
        XCTAssertEqual(
            try FilterParser.parse(#"title = "\u4f60" and not unread"#),
            .and(
                .comparison(FilterComparison(field: .title, operation: .equal, values: [.text("你")])),
                .not(.comparison(FilterComparison(field: .unread, operation: .equal, values: [.boolean(true)])))))
    }

    func testErrorsPointAtTheColumnAndSayWhatWasExpected() {
        let cases: [(String, String)] = [
            (
                #"titel ~ "x""#,
                "unknown field \"titel\" (did you mean \"title\"? valid fields: title, author, summary, content, url, provider, section, kind, tags, labels, node, repo, language, replies, comments, stars, forks, likes, views, age, published, updated, unread, saved) (column 1)\n  titel ~ \"x\"\n  ^"
            ),
            (#"age ~ "x""#, "operator ~ does not apply to age, which is a duration (use <, <=, >, >=) (column 5)\n  age ~ \"x\"\n      ^"),
            ("replies > many", "replies > needs a number, found \"many\" (column 11)\n  replies > many\n            ^"),
            (
                #"title ~ "x" and"#,
                "expected a field such as title, author or replies, found the end of the filter (column 16)\n  title ~ \"x\" and\n                 ^"
            ),
            (
                #"title ~ "x" replies > 2"#,
                "expected \"and\", \"or\" or the end of the filter, found \"replies\" (column 13)\n  title ~ \"x\" replies > 2\n              ^"
            ),
            (#"(title ~ "x""#, "expected \")\", found the end of the filter (column 13)\n  (title ~ \"x\"\n              ^"),
            (#"title = "open"#, "unterminated string; close it with \" (column 9)\n  title = \"open\n          ^"),
            ("title ~ /[/", "invalid regular expression /[/ (column 9)\n  title ~ /[/\n          ^"),
            (
                "published >= soon",
                "published >= needs a date such as 2026-11-01, found \"soon\" (column 14)\n  published >= soon\n               ^"
            ),
            ("kind in []", "expected at least one value in [ ], found \"]\" (column 10)\n  kind in []\n           ^"),
            ("", "empty filter; write a condition such as title ~ \"swift\" (column 1)\n  \n  ^"),
            (
                #"标题 = "x""#,
                "unknown field \"标题\" (valid fields: title, author, summary, content, url, provider, section, kind, tags, labels, node, repo, language, replies, comments, stars, forks, likes, views, age, published, updated, unread, saved) (column 1)\n  标题 = \"x\"\n  ^"
            ),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try FilterParser.parse(text), text) { error in
                XCTAssertEqual("\(error)", message, text)
            }
        }
    }

    func testCaretCountsWideCharacters() {
        XCTAssertThrowsError(try FilterParser.parse(#"title = "数据库" bogus"#)) { error in
            XCTAssertEqual(
                "\(error)".split(separator: "\n").last, "                   ^", "two spaces of indent, then 17 columns: 数据库 is six wide")
        }
    }
}
