import Aggregator
import XCTest

final class HTTPHeaderLineTests: XCTestCase {
    func line(_ text: String) -> HTTPHeaderLine {
        Array(text.utf8).withUnsafeBufferPointer { HTTPHeaderLine($0) }
    }

    /// Status lines, fields trimmed of spaces, tabs and line ends, and everything else.
    func testLinesAreReadAsLibcurlHandsThemOver() {
        XCTAssertEqual(line("HTTP/1.1 200 OK\r\n"), .status)
        XCTAssertEqual(line("HTTP/2 304\r\n"), .status)
        XCTAssertEqual(line("ETag: \"v1\"\r\n"), .field(name: "ETag", value: "\"v1\""))
        XCTAssertEqual(
            line("Content-Type:\t text/xml; charset=gbk \t\r\n"), .field(name: "Content-Type", value: "text/xml; charset=gbk"))
        XCTAssertEqual(line("X-Empty:\r\n"), .field(name: "X-Empty", value: ""))
        XCTAssertEqual(line("Location: https://a.example/x?y=1:2\r\n"), .field(name: "Location", value: "https://a.example/x?y=1:2"))
        XCTAssertEqual(line("  Folded : value\r\n"), .field(name: "Folded", value: "value"), "white space before the name")
        XCTAssertEqual(line("X-Title: 数据库 ünï\r\n"), .field(name: "X-Title", value: "数据库 ünï"))
        XCTAssertEqual(line("\r\n"), .other, "the blank line that ends the block")
        XCTAssertEqual(line(""), .other)
        XCTAssertEqual(line("no colon here\r\n"), .other)
        XCTAssertEqual(line("HTTPS-Thing: x\r\n"), .field(name: "HTTPS-Thing", value: "x"), "only HTTP/ starts a response")
    }
}
