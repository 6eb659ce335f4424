import Aggregator
import AggregatorTestSupport
import Foundation
import XCTest

final class ConfigLoaderTests: XCTestCase {
    let loader = ConfigLoader(registry: ProviderRegistry([SampleForumProvider.self]))

    func load(_ text: String) throws -> Configuration {
        try loader.parse(bytes: Array(text.utf8), file: "providers.json")
    }

    func assertError(_ text: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try load(text), file: file, line: line) { error in
            XCTAssertEqual((error as? ConfigError)?.description, expected, file: file, line: line)
        }
    }

    func testLoadsAFullEntry() throws {
        let configuration = try load(
            """
            {
              "providers": [
                { "id": "f1", "type": "forum", "sections": ["hot", "node/swift?pages=2"],
                  "options": { "pages": 3, "details": true, "mode": "html" },
                  "api_url": "http://127.0.0.1:8080/", "web_url": "https://forum.example",
                  "token_env": "FORUM_TOKEN", "interval": "30m", "limit": 50,
                  "include": "title ~ 'swift'", "exclude": "title ~ 'nightly'", "enabled": false }
              ],
              "timeline": { "limit": 25, "exclude": "kind = reply" },
              "retention": { "max_items": 500, "max_age": "90d" },
              "views": { "releases": "kind = release" }
            }
            """)
        let provider = try XCTUnwrap(configuration.provider(id: "f1"))
        XCTAssertEqual(provider.sections.map(\.key), ["hot", "node/swift?pages=2"])
        XCTAssertEqual(provider.integerOption("pages", default: 1), 3)
        XCTAssertEqual(provider.apiURL, "http://127.0.0.1:8080")
        XCTAssertEqual(provider.tokenEnv, "FORUM_TOKEN")
        XCTAssertEqual(provider.interval, TimeSpan(seconds: 1_800))
        XCTAssertEqual(provider.limit, 50)
        XCTAssertEqual(provider.exclude, "title ~ 'nightly'")
        XCTAssertFalse(provider.enabled)
        XCTAssertEqual(configuration.timeline.limit, 25)
        XCTAssertEqual(configuration.timeline.exclude, "kind = reply")
        XCTAssertEqual(configuration.timeline.excludeFilter, try FilterParser.parse("kind = reply"))
        XCTAssertEqual(provider.excludeFilter, try FilterParser.parse("title ~ 'nightly'"))
        XCTAssertEqual(provider.includeFilter, try FilterParser.parse("title ~ 'swift'"))
        XCTAssertEqual(configuration.retention, RetentionPolicy(maxItemsPerProvider: 500, maxAge: TimeSpan(seconds: 7_776_000)))
        XCTAssertEqual(
            configuration.views,
            [NamedView(name: "releases", expression: "kind = release", filter: try FilterParser.parse("kind = release"))])
    }

    func testEmptyDocumentIsAValidConfigWithDefaults() throws {
        let configuration = try load("{}")
        XCTAssertTrue(configuration.providers.isEmpty)
        XCTAssertEqual(configuration.timeline.limit, 40)
        XCTAssertEqual(configuration.retention.maxItemsPerProvider, 10_000)
    }

    func testEveryErrorNamesFileAndKeyPath() {
        let valid = #"{ "id": "ok", "type": "forum", "sections": ["hot"] }"#
        assertError(
            #"{"providers": [\#(valid), \#(valid.replacingOccurrences(of: "\"ok\"", with: "\"b\"")), { "id": "c", "type": "forum", "sections": ["nod/swift"] }]}"#,
            #"providers.json: providers[2].sections[0]: unknown section kind "nod" for type forum (did you mean "node"?)"#)
        assertError(#"{"provders": []}"#, #"providers.json: unknown key "provders" (did you mean "providers"?)"#)
        assertError(#"{"providers": {}}"#, "providers.json: providers: must be an array, not an object")
        assertError(
            #"{"providers": [\#(valid), \#(valid)]}"#, #"providers.json: providers[1].id: duplicate id "ok" (already used by providers[0])"#
        )
        assertError(#"{"providers": [{"type": "forum"}]}"#, #"providers.json: providers[0]: missing "id""#)
        assertError(
            #"{"providers": [{"id": "x", "type": "forum", "sections": ["hot"], "titles": {"hto": "Hot"}}]}"#,
            #"providers.json: providers[0].titles.hto: no section "hto" in this entry (its sections: hot)"#)
        assertError(
            #"{"providers": [{"id": "x", "type": "forum", "sections": ["hot"], "titles": {"hot": " "}}]}"#,
            #"providers.json: providers[0].titles.hot: must not be empty"#)
        assertError(
            #"{"providers": [{"id": "Bad Id", "type": "forum"}]}"#,
            #"providers.json: providers[0].id: id "Bad Id" must match [a-z0-9][a-z0-9_-]* (lowercase letters, digits, - and _)"#)
        assertError(
            #"{"providers": [{"id": "x", "type": "forun", "sections": ["hot"]}]}"#,
            #"providers.json: providers[0].type: unknown type "forun" (did you mean "forum"?)"#)
        assertError(
            #"{"providers": [{"id": "x", "type": "rss", "sections": ["hot"]}]}"#,
            #"providers.json: providers[0].type: unknown type "rss" (known types: forum)"#)
        assertError(
            #"{"providers": [{"id": "x", "type": "forum", "sectons": ["hot"]}]}"#,
            #"providers.json: providers[0]: unknown key "sectons" (did you mean "sections"?)"#)
        assertError(
            #"{"providers": [{"id": "x", "type": "forum"}]}"#,
            #"providers.json: providers[0]: missing "sections" for provider "x" (e.g. ["hot"])"#)
        assertError(
            #"{"providers": [{"id": "x", "type": "forum", "sections": []}]}"#,
            "providers.json: providers[0].sections: must be a non-empty array of section strings")
        assertError(
            #"{"providers": [{"id": "x", "type": "forum", "sections": ["hot", "hot"]}]}"#,
            #"providers.json: providers[0].sections[1]: section "hot" is listed twice"#)
        assertError(
            #"{"providers": [{"id": "x", "type": "forum", "sections": ["hot"], "interval": "5x"}]}"#,
            #"providers.json: providers[0].interval: bad duration "5x" (write e.g. 90s, 30m, 1h30m, 2d)"#)
        assertError(
            #"{"providers": [{"id": "x", "type": "forum", "sections": ["hot"], "limit": 0}]}"#,
            "providers.json: providers[0].limit: must be a whole number from 1 to 1000")
        assertError(
            #"{"providers": [{"id": "x", "type": "forum", "sections": ["hot"], "api_url": "ftp://x"}]}"#,
            #"providers.json: providers[0].api_url: must be an http or https URL (got "ftp://x")"#)
        assertError(
            #"{"providers": [{"id": "x", "type": "forum", "sections": ["hot"], "enabled": "yes"}]}"#,
            "providers.json: providers[0].enabled: must be true or false")
        assertError(
            #"{"providers": [{"id": "x", "type": "forum", "sections": ["hot"], "options": {"page": 2}}]}"#,
            #"providers.json: providers[0].options: unknown option "page" for type forum (did you mean "pages"?)"#)
        assertError(
            #"{"providers": [{"id": "x", "type": "forum", "sections": ["hot"], "options": {"pages": "2"}}]}"#,
            "providers.json: providers[0].options.pages: must be 1…10, not a string")
        assertError(
            #"{"providers": [{"id": "x", "type": "forum", "sections": ["hot"], "options": {"pages": 11}}]}"#,
            #"providers.json: providers[0].options.pages: must be a whole number from 1 to 10 (got "11")"#)
        assertError(
            #"{"providers": [{"id": "x", "type": "forum", "sections": ["hot"], "options": {"mode": "api", "details": true}}]}"#,
            #"providers.json: providers[0].options.details: details need mode "html""#)
        assertError(#"{"timeline": {"limit": -1}}"#, "providers.json: timeline.limit: must be a whole number from 1 to 10000")
        assertError(
            #"{"retention": {"max_age": "forever"}}"#,
            #"providers.json: retention.max_age: bad duration "forever" (write e.g. 90s, 30m, 1h30m, 2d)"#)
        assertError(#"[]"#, "providers.json: must be an object, not an array")
    }

    func testBadJSONNamesLineAndColumn() {
        assertError(
            "{\n  \"providers\": [\n    { \"id\": \"x\" \"type\": \"forum\" }\n  ]\n}",
            "providers.json: line 3, column 17: invalid JSON: expected ',' or '}' after object member but found '\"'")
    }

    func testAPastedTokenIsRejectedWithoutEchoingIt() {
        let secret = "ghp_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ"
        XCTAssertThrowsError(try load(#"{"providers": [{"id": "x", "type": "forum", "sections": ["hot"], "token_env": "\#(secret)"}]}"#)) {
            error in
            let text = "\(error)"
            XCTAssertEqual(
                text,
                "providers.json: providers[0].token_env: must name an environment variable (such as GITHUB_TOKEN), not hold the token itself"
            )
            XCTAssertFalse(text.contains(secret))
        }
    }

    func testLoadingAMissingFileSaysHowToCreateOne() {
        XCTAssertThrowsError(try loader.load(path: "/nonexistent/providers.json")) { error in
            XCTAssertEqual("\(error)", "/nonexistent/providers.json: does not exist (run `aggr init` to create a starter config)")
        }
    }

    /// A path that is there but cannot be read is not "no config yet": an edit must not
    /// start from an empty document and write over it.
    func testAPathThatCannotBeReadIsAnErrorForLoadingAndEditing() {
        let directory = TemporaryDirectory()
        let folder = directory.file("providers.json")
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let expected = "\(folder): cannot be read (run `aggr init` to create a starter config)"
        XCTAssertThrowsError(try loader.load(path: folder)) { XCTAssertEqual("\($0)", expected) }
        XCTAssertThrowsError(try ConfigEditor(path: folder, registry: loader.registry).document()) { XCTAssertEqual("\($0)", expected) }
        XCTAssertEqual(
            try ConfigEditor(path: directory.file("new.json"), registry: loader.registry).document(),
            .object([JSONMember("providers", .array([]))]))
    }
}
