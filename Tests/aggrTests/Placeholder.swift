import XCTest
final class PlaceholderaggrTestsTests: XCTestCase { func testNothing() {} }
