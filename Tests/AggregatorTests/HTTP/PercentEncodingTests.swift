import Aggregator
import XCTest

final class PercentEncodingTests: XCTestCase {
    func testOnlyUnreservedASCIISurvives() {
        XCTAssertEqual(PercentEncoding.component("swift-nio_1.0~x"), "swift-nio_1.0~x")
        XCTAssertEqual(PercentEncoding.component("a b&c=d+e/f?g#h:i@j"), "a%20b%26c%3Dd%2Be%2Ff%3Fg%23h%3Ai%40j")
        // Unicode letters are letters to CharacterSet.alphanumerics, which kept them raw.
        XCTAssertEqual(PercentEncoding.component("数据库"), "%E6%95%B0%E6%8D%AE%E5%BA%93")
        XCTAssertEqual(PercentEncoding.component("café"), "caf%C3%A9")
    }
}
