import XCTest
final class PlaceholderProvidersTestsTests: XCTestCase { func testNothing() {} }
