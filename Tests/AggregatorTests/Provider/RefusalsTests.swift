import Aggregator
import XCTest

/// A site's table of statuses reads an HTTP refusal as a provider error, and the refresher's
/// stamp puts the section into the message.
final class RefusalsTests: XCTestCase {
    let refusals = Refusals(
        site: "Forge",
        [
            401: .signIn(hint: "check $FORGE_TOKEN"), 403: .blocked(barrier: "CDN", advice: nil),
            405: .blocked(barrier: "web firewall", advice: "the API still works"), 404: .notFound,
        ])

    func read(_ code: Int, excerpt: String = "Nope") -> Error {
        refusals.reading(HTTPError.status(url: "http://127.0.0.1/x", code: code, excerpt: excerpt))
    }

    func testEachMeaningBecomesItsProviderError() {
        XCTAssertEqual(
            read(401) as? ProviderError,
            .needsSignIn(detail: "Forge refused the request (HTTP 401 from http://127.0.0.1/x): Nope; check $FORGE_TOKEN"))
        XCTAssertEqual(read(403) as? ProviderError, .blocked(detail: "blocked by Forge's CDN (HTTP 403 from http://127.0.0.1/x)"))
        XCTAssertEqual(
            read(405) as? ProviderError,
            .blocked(detail: "blocked by Forge's web firewall (HTTP 405 from http://127.0.0.1/x); the API still works"))
        XCTAssertEqual(read(404) as? ProviderError, .notFound(detail: "Forge: Nope (HTTP 404 from http://127.0.0.1/x)"))
        XCTAssertEqual(read(404, excerpt: "") as? ProviderError, .notFound(detail: "Forge: not found (HTTP 404 from http://127.0.0.1/x)"))
    }

    func testStatusesAndErrorsTheTableDoesNotNamePassThrough() {
        XCTAssertEqual(read(500) as? HTTPError, .status(url: "http://127.0.0.1/x", code: 500, excerpt: "Nope"))
        let timeout = HTTPError.timeout(url: "http://127.0.0.1/x", seconds: 5)
        XCTAssertEqual(refusals.reading(timeout) as? HTTPError, timeout)
    }

    func testTheStampNamesTheSectionThatNeedsSigningIn() throws {
        let error = try XCTUnwrap(read(401) as? ProviderError)
        XCTAssertEqual(
            "\(error)", "needs a token or sign-in: Forge refused the request (HTTP 401 from http://127.0.0.1/x): Nope; check $FORGE_TOKEN")
        let stamped = error.stamped(provider: "forge", section: "issues/a/b")
        XCTAssertEqual(stamped.provider, "forge")
        XCTAssertEqual(
            "\(stamped)",
            "issues/a/b needs a token or sign-in: Forge refused the request (HTTP 401 from http://127.0.0.1/x): Nope; check $FORGE_TOKEN")
    }
}
