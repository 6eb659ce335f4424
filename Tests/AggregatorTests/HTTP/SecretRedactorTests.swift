import XCTest

@testable import Aggregator

final class SecretRedactorTests: XCTestCase {
    func testCredentialParametersAreRedactedWhateverTheirCase() {
        let cases: [(String, String)] = [
            ("https://h/f?token=S&a=1", "https://h/f?token=REDACTED&a=1"),
            ("https://h/f?Access_Token=S", "https://h/f?Access_Token=REDACTED"),
            ("https://h/f?auth_token=S;x=2", "https://h/f?auth_token=REDACTED;x=2"),
            ("https://h/f?api-key=S", "https://h/f?api-key=REDACTED"),
            ("https://h/f?API_KEY=S", "https://h/f?API_KEY=REDACTED"),
            ("https://h/f?apikey=S&key=T", "https://h/f?apikey=REDACTED&key=REDACTED"),
            ("https://h/f?github_token=S", "https://h/f?github_token=REDACTED"),
            ("https://h/f?x-api-key=S", "https://h/f?x-api-key=REDACTED"),
            ("https://h/f?password=S&secret=T&sig=U", "https://h/f?password=REDACTED&secret=REDACTED&sig=REDACTED"),
            ("https://h/cb#access_token=S&state=1", "https://h/cb#access_token=REDACTED&state=1"),
            ("https://user:pass@h/f", "https://user:REDACTED@h/f"),
            ("https://ghp_S@h/f?page=2", "https://REDACTED@h/f?page=2"),
            ("https://h/f?page=2&sort=new", "https://h/f?page=2&sort=new"),
            ("https://h/f?token=", "https://h/f?token="),
            // URLComponents cannot parse these; the redaction must not give up on them.
            ("https://h/a b?token=S", "https://h/a b?token=REDACTED"),
            ("https://h/%zz?key=S", "https://h/%zz?key=REDACTED"),
            ("url/https://h/feed.xml?token=S", "url/https://h/feed.xml?token=REDACTED"),
            ("search/swift?key=S", "search/swift?key=REDACTED"),
            ("node/swift", "node/swift"),
        ]
        for (input, expected) in cases {
            XCTAssertEqual(SecretRedactor.redact(url: input), expected, input)
        }
    }

    func testURLsInsideMessagesAreRedacted() {
        XCTAssertEqual(
            SecretRedactor.redactURLs(in: "url/http://h/f?token=S: HTTP 500 from http://u:p@h/f?key=K (see \"https://h/x?sig=Z\")"),
            "url/http://h/f?token=REDACTED: HTTP 500 from http://u:REDACTED@h/f?key=REDACTED (see \"https://h/x?sig=REDACTED\")")
    }

    func testItemsAreRedactedAndSanitizedBeforeStorage() {
        let item = Item(
            provider: "p", section: "url/http://h/f?token=S", id: "http://h/f?token=S", kind: .post,
            title: "a\u{202E}b\u{1B}[31mc\u{85}d", url: "http://u:p@h/f", author: Author(name: "x\u{2066}y", url: "http://h/?key=K"),
            summary: "s\u{9B}1mt", content: "line\none\u{7}", published: Date(timeIntervalSince1970: 0), tags: ["t\u{202B}"],
            image: "http://h/i.png?sig=Z", extra: ["node": "n\u{1B}]8;;x\u{7}o"])
        let prepared = item.preparedForStorage()
        XCTAssertEqual(prepared.section, "url/http://h/f?token=REDACTED")
        XCTAssertEqual(prepared.id, "http://h/f?token=REDACTED")
        XCTAssertEqual(prepared.url, "http://u:REDACTED@h/f")
        XCTAssertEqual(prepared.image, "http://h/i.png?sig=REDACTED")
        XCTAssertEqual(prepared.author, Author(name: "xy", url: "http://h/?key=REDACTED"))
        XCTAssertEqual(prepared.title, "abcd")
        XCTAssertEqual(prepared.summary, "st")
        XCTAssertEqual(prepared.content, "line\none")
        XCTAssertEqual(prepared.tags, ["t"])
        XCTAssertEqual(prepared.extra, ["node": "no"])
        let clean = Item(provider: "p", section: "hot", id: "1", kind: .post, title: "中文 title", url: "https://h/t/1", published: .now)
        XCTAssertEqual(clean.preparedForStorage(), clean)
    }
}
