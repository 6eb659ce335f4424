import XCTest
final class PlaceholderAggregatorTestsTests: XCTestCase { func testNothing() {} }
