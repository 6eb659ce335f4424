import XCTest

@testable import Aggregator

/// Numbers stay exact, upstream payloads are read leniently, config strictly, and bytes that
/// are not UTF-8 are refused with their offset in both modes.
final class JSONParserModeTests: XCTestCase {
    func testIntegersKeepEveryDigit() throws {
        let value = try JSONParser.parse(#"{"id": 1234567890123456789, "big": 123456789012345678901234567890, "neg": -9007199254740993}"#)
        XCTAssertEqual(value["id"]?.integerValue, 1_234_567_890_123_456_789)
        XCTAssertEqual(JSONKeyPath("id")!.text(in: value), "1234567890123456789")
        XCTAssertEqual(JSONKeyPath("big")!.text(in: value), "123456789012345678901234567890")
        XCTAssertEqual(JSONKeyPath("neg")!.text(in: value), "-9007199254740993")
        var writer = JSONWriter()
        writer.value(value)
        XCTAssertEqual(writer.output, #"{"id":1234567890123456789,"big":123456789012345678901234567890,"neg":-9007199254740993}"#)
        let fractions = try JSONParser.parse("[2.5, 1e3, 1.0, -0, 1.5e300]")
        XCTAssertEqual(fractions, .array([.number(2.5), .number(1000), .number(1), .number(0), .number(1.5e300)]))
        XCTAssertNil(try JSONParser.parse("1.5").integerValue)
    }

    func testDuplicateKeysAreRefusedInConfigAndTheLastWinsUpstream() throws {
        XCTAssertThrowsError(try JSONParser.parse(#"{"a": 1, "a": 2}"#))
        let upstream = try JSONParser.parse(#"{"a": 1, "b": 2, "a": {"c": 3}}"#, mode: .upstream)
        XCTAssertEqual(upstream, .object([JSONMember("a", .object([JSONMember("c", .number(3))])), JSONMember("b", .number(2))]))
    }

    func testBytesThatAreNotUTF8AreRefusedWithTheirOffset() {
        let cases: [([UInt8], String)] = [
            (Array(#"{"a": "x"#.utf8) + [0xFF] + Array(#""}"#.utf8), "0xff at byte offset 8"),
            (Array(#"["é", ""#.utf8) + [0xC3, 0x28] + Array(#""]"#.utf8), "0xc3 at byte offset 8"),
            (Array(#"[""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""]"#.utf8), "0xed at byte offset 2"),  // an encoded surrogate
            (Array(#"[""#.utf8) + [0xC0, 0xAF] + Array(#""]"#.utf8), "0xc0 at byte offset 2"),  // overlong
            (Array(#"[""#.utf8) + [0xE4, 0xBD] + Array(#""]"#.utf8), "0xe4 at byte offset 2"),  // cut short
        ]
        for (bytes, offset) in cases {
            for mode in [JSONParser.Mode.strict, .upstream] {
                XCTAssertThrowsError(try JSONParser.parse(bytes: bytes, mode: mode)) { error in
                    XCTAssertTrue("\(error)".contains("invalid UTF-8 (byte \(offset))"), "\(error)")
                }
            }
        }
    }

    func testLoneSurrogateEscapesAreRefusedInConfigAndReplacedUpstream() throws {
        for text in [#"["\ud800"]"#, #"["\udc00x"]"#, #"["\ud800\u0041"]"#, #"["\ud800\ud800"]"#] {
            XCTAssertThrowsError(try JSONParser.parse(text), text) { error in
                XCTAssertTrue("\(error)".contains("lone surrogate"), "\(error)")
            }
        }
        XCTAssertEqual(try JSONParser.parse(#"["\ud800"]"#, mode: .upstream), .array([.string("\u{FFFD}")]))
        XCTAssertEqual(try JSONParser.parse(#"["\ud800\u0041"]"#, mode: .upstream), .array([.string("\u{FFFD}A")]))
    }
}
