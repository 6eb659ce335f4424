import AggregatorTestSupport
import XCTest

@testable import Aggregator

final class WebURLTests: XCTestCase {
    func testCanonicalFormFoldsSchemeHostPortSlashAndTracking() {
        XCTAssertEqual(WebURL.canonical("http://WWW.GitHub.com:80/a/b/?utm_source=x"), "https://github.com/a/b")
        XCTAssertEqual(WebURL.canonical("https://github.com/a/b"), "https://github.com/a/b")
        XCTAssertEqual(WebURL.canonical("https://example.com"), "https://example.com/")
        XCTAssertEqual(WebURL.canonical("https://example.com/p?id=3&utm_medium=rss"), "https://example.com/p?id=3")
    }

    func testFragmentsStayDistinct() {
        XCTAssertNotEqual(WebURL.canonical("https://www.v2ex.com/t/1#r_2"), WebURL.canonical("https://www.v2ex.com/t/1"))
    }

    /// The byte-level shortcut never changes a result.
    ///
    /// Whatever it accepts, parsing returns unchanged; checked on crafted edge cases and every
    /// URL in the shared fixtures.
    func testTheShortcutAgreesWithParsing() throws {
        var urls = [
            "https://github.com/a/b", "https://github.com/", "https://github.com", "https://github.com/a/b/",
            "https://www.v2ex.com/t/1", "https://v2ex.com/t/1#r_2", "https://v2ex.com/t/1#r_2?x", "https://Github.com/a",
            "https://github.com:443/a", "https://github.com/a?b=1", "https://a.example/%E6%95%B0", "https://a.example/%E6%9",
            "https://a.example/%zz", "https://a.example/a b", "https://a.example/数据", "https://a.example/a[1]", "http://a.example/x",
            "https://user@a.example/x", "https://a.example/~me/(x)/!$&'*+,;=:@", "https://a.example/x#", "https://a.example//",
            "https://gitee.com/kit101/drone-yml/issues/I4CD5P#note_6877445", " https://a.example/x", "https://a.example/x\u{1B}",
        ]
        urls += try Self.fixtureURLs()
        var shortcuts = 0
        for url in urls {
            XCTAssertEqual(WebURL.canonical(url), WebURL.parsedCanonical(url), url)
            if WebURL.isCanonical(url) {
                shortcuts += 1
                XCTAssertEqual(WebURL.parsedCanonical(url), url, "accepted but not canonical: \(url)")
            }
        }
        XCTAssertTrue(WebURL.isCanonical("https://github.com/a/b"))
        XCTAssertTrue(WebURL.isCanonical("https://v2ex.com/t/1#r_2"))
        XCTAssertFalse(WebURL.isCanonical("https://github.com/a/b/"))
        XCTAssertGreaterThan(shortcuts, urls.count / 10, "the shortcut serves common URLs (\(shortcuts) of \(urls.count))")
    }

    /// The byte reading of http(s) URLs only says yes where URLComponents does.
    ///
    /// Every combination of schemes, authorities and tails that bend the plain shape (49,280
    /// strings), then every URL in the shared fixtures.
    func testThePlainHTTPReadingAgreesWithParsing() throws {
        let schemes = [
            "http://", "https://", "HTTPS://", "hTtP://", "ftp://", "http:/", "http:", "https//", "httpss://", "", "\u{1A}ttp://",
        ]
        let hosts = [
            "a.example", "A.Example", "127.0.0.1", "-x-", "..", "", "a_b", "[::1]", "ex ample", "é.example", "user@a.example", "a.example@",
            "a!b", "xn--bcher-kva.example", "a\u{0D}b", "a.example.",
        ]
        let ports = ["", ":", ":0", ":80", ":65535", ":65536", ":123456", ":8a", "::80", ":-1"]
        let tails = [
            "", "/", "/p/1", "/a b", "/%41", "/%4", "/%zz", "?q=1", "?q=1?r", "#f", "#f#g", "/x?y#z", "/x#y?z", "/@:", "/ü", "/\\",
            "/|", "/^", "/{", "/[1]", "/~me/(x)/!$&'*+,;=", "/\u{1B}", " ", "/x\n", "//", "#", "?", "/%E6%95%B0",
        ]
        var urls: [String] = []
        for scheme in schemes {
            for host in hosts {
                for port in ports {
                    for tail in tails { urls.append(scheme + host + port + tail) }
                }
            }
        }
        urls += try Self.fixtureURLs()
        var plain = 0
        for url in urls where WebURL.isPlainHTTP(url) {
            plain += 1
            XCTAssertTrue(WebURL.parsedIsHTTP(url), "read as plain http but URLComponents says no: \(url.debugDescription)")
        }
        for url in ["https://a.example/p/1", "HTTP://A.Example:8080/x?y=1#z", "http://127.0.0.1:42363/feed-0.xml", "https://a.example"] {
            XCTAssertTrue(WebURL.isPlainHTTP(url), url)
        }
        XCTAssertGreaterThan(plain, 5_000, "the byte reading serves the plain shapes (\(plain) of \(urls.count))")
    }

    /// Every http(s) URL written in the shared fixtures' JSON, HTML and XML files (none without them).
    static func fixtureURLs() throws -> [String] {
        guard let directory = SharedFixtures.directory() else { return [] }
        var urls: [String] = []
        let pattern = try NSRegularExpression(pattern: #"https?://[^\s"'<>\\]+"#)
        let files = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".json") || file.hasSuffix(".html") || file.hasSuffix(".xml") {
            let text = (try? String(contentsOfFile: "\(directory)/\(file)", encoding: .utf8)) ?? ""
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                urls.append(String(text[Range(match.range, in: text)!]))
            }
        }
        return urls
    }

    func testRecognizesOnlyHTTPURLs() {
        XCTAssertTrue(WebURL.isHTTP("https://a.example/x"))
        XCTAssertFalse(WebURL.isHTTP("ftp://a.example/x"))
        XCTAssertFalse(WebURL.isHTTP("javascript:alert(1)"))
        XCTAssertFalse(WebURL.isHTTP("/relative"))
    }
}
