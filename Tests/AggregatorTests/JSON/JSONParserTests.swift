import Aggregator
import XCTest

final class JSONParserTests: XCTestCase {
    func testParsesNestedValuesKeepingMemberOrder() throws {
        let value = try JSONParser.parse(#"{"b": [1, 2.5, -3e2], "a": {"z": null, "y": true}, "c": "x"}"#)
        guard case .object(let members) = value else { return XCTFail("not an object") }
        XCTAssertEqual(members.map(\.key), ["b", "a", "c"])
        XCTAssertEqual(value["b"], .array([.number(1), .number(2.5), .number(-300)]))
        XCTAssertEqual(value["a"]?["y"], .bool(true))
        XCTAssertEqual(value["a"]?["z"], .null)
    }

    func testDecodesEscapesAndSurrogatePairs() throws {
        let value = try JSONParser.parse(#"["\u4f60\u597d", "\ud83d\ude00", "a\"b\\c\/d\n\t", "\u0041"]"#)
        XCTAssertEqual(value, .array([.string("你好"), .string("😀"), .string("a\"b\\c/d\n\t"), .string("A")]))
    }

    func testReportsLineAndColumnOfSyntaxErrors() {
        let cases: [(String, JSONSyntaxError)] = [
            (
                "{\n  \"a\": 1\n  \"b\": 2\n}",
                JSONSyntaxError(line: 3, column: 3, message: "expected ',' or '}' after object member but found '\"'")
            ),
            ("[1, 2,]", JSONSyntaxError(line: 1, column: 7, message: "trailing comma before ']'")),
            ("{\"a\": tru}", JSONSyntaxError(line: 1, column: 7, message: "invalid literal; expected true")),
            ("{\"a\": 1, \"a\": 2}", JSONSyntaxError(line: 1, column: 10, message: "duplicate key \"a\"")),
            ("{\"名前\": x}", JSONSyntaxError(line: 1, column: 8, message: "expected a value but found 'x'")),
            ("\"open", JSONSyntaxError(line: 1, column: 1, message: "unterminated string")),
            ("{} {}", JSONSyntaxError(line: 1, column: 4, message: "unexpected text after the end of the document")),
            ("", JSONSyntaxError(line: 1, column: 1, message: "expected a value but found end of file")),
            ("01", JSONSyntaxError(line: 1, column: 2, message: "unexpected text after the end of the document")),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try JSONParser.parse(text), text) { error in
                XCTAssertEqual(error as? JSONSyntaxError, expected, text)
            }
        }
    }

    func testRejectsExcessiveNesting() {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        XCTAssertThrowsError(try JSONParser.parse(deep))
    }

    func testWriterKeepsOrderAndEscapesEveryControlCharacter() throws {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("z"); writer.string("esc \u{1B}[2J bell \u{07} c1 \u{9B} quote \" slash \\ nl \n")
        writer.key("a"); writer.beginArray(); writer.integer(1); writer.null(); writer.bool(false); writer.endArray()
        writer.key("m"); writer.value(.object([JSONMember("k", .number(1.5))]))
        writer.endObject()
        XCTAssertEqual(
            writer.output,
            #"{"z":"esc \u001b[2J bell \u0007 c1 \u009b quote \" slash \\ nl \n","a":[1,null,false],"m":{"k":1.5}}"#)
        XCTAssertNoThrow(try JSONParser.parse(writer.output))
    }

    func testQuotingPlainAndMixedText() throws {
        for (text, quoted) in [
            ("plain ascii", #""plain ascii""#), ("数据\"库\u{85}x", #""数据\"库\u0085x""#), ("", #""""#),
            ("tab\tend", #""tab\tend""#), ("\u{7F}", #""\u007f""#), ("末尾\u{2028}", #""末尾\u2028""#),
        ] {
            var output = ""
            JSONWriter.appendQuoted(text, to: &output)
            XCTAssertEqual(output, quoted)
            XCTAssertEqual(try JSONParser.parse(output).stringValue, text)
        }
    }
}
