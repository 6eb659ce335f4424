import Aggregator
import AggregatorTestSupport
import XCTest

/// The `json` and `html` types: any site through config alone.
final class GenericTypesTests: EndToEndTestCase {
    static let api = #"""
        {"ok": true, "data": {"list": [
          {"id": 101, "title": "接口的第一条", "url": "/posts/101", "user": {"name": "张三"}, "time": "2026-11-20 10:00", "cover": "/img/101.png"},
          {"id": 102, "title": "Second entry", "url": "https://elsewhere.example/102", "user": {"name": "li"}, "time": "2026-11-19 08:30"}
        ]}}
        """#

    static let page = """
        <html><head><title>Example News</title></head><body><main>
        <article class="post" data-id="n1"><h2><a href="/news/1">First headline</a></h2><span class="by">Ada</span>
          <time datetime="2026-11-20T09:00:00Z">yesterday</time><p class="excerpt">Short text &amp; more</p><img src="/i/1.jpg"></article>
        <article class="post" data-id="n2"><h2><a href="news/2">Second headline</a></h2><time datetime="2026-11-19T09:00:00Z"></time></article>
        </main></body></html>
        """

    func testJSONAndHTMLTypesEndToEnd() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let base = server.baseURL
        server.route("/api/list") { _ in .text(Self.api) }
        server.route("/api/broken") { _ in .text(#"{"data": {"list": [{"title": "ok", "url": "/1"}, {"url": "/2"}]}}"#) }
        server.route("/news") { _ in .text(Self.page, contentType: "text/html; charset=utf-8") }
        server.route("/empty") { _ in .text("<html><body><p>Nothing to see here today.</p></body></html>", contentType: "text/html") }
        directory.write(
            "providers.json",
            """
            {"providers": [
              {"id": "api", "type": "json", "token_env": "API_TEST_TOKEN",
               "options": {"url": "\(base)/api/list", "items": "data.list[*]", "date_format": "yyyy-MM-dd HH:mm",
                           "headers": {"X-Api-Key": "{token}"},
                           "fields": {"title": "title", "link": "url", "id": "id", "author": "user.name", "date": "time", "image": "cover"}}},
              {"id": "apibad", "type": "json", "sections": ["url/\(base)/api/list"],
               "options": {"items": "data.lst", "fields": {"title": "title", "link": "url"}}},
              {"id": "apimissing", "type": "json", "options": {"url": "\(base)/api/broken", "items": "data.list", "fields": {"title": "title", "link": "url"}}},
              {"id": "news", "type": "html",
               "options": {"url": "\(base)/news", "items": "article.post",
                           "fields": {"title": "h2 a", "link": "h2 a@href", "id": "@data-id", "author": ".by", "date": "time@datetime",
                                      "summary": "p.excerpt", "image": "img@src"}}},
              {"id": "newsbad", "type": "html", "options": {"url": "\(base)/news", "items": "article.post", "fields": {"title": "h2 a", "link": ".by@href"}}},
              {"id": "empty", "type": "html", "options": {"url": "\(base)/empty", "items": "div.story", "fields": {"title": "a", "link": "a@href"}}}
            ]}
            """)
        let result = try runner.run(["refresh"], in: directory.path, extraEnvironment: ["API_TEST_TOKEN": "secret-api-token-9"])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertFalse(result.stderr.contains("secret-api-token-9"))
        let lines = Set(result.stderr.split(separator: "\n").map(String.init))
        for line in [
            "api api: 2 new, 0 updated, 0 unchanged",
            "news page: 2 new, 0 updated, 0 unchanged",
            "apibad url/\(base)/api/list: failed: unexpected answer: items path \"data.lst\" reached nothing (top-level keys: ok, data)",
            "apimissing api: failed: unexpected answer: entry 1 has no title: key path \"title\" found nothing (entry: {\"url\":\"/2\"})",
            "newsbad page: failed: unexpected answer: entry 0 has no link: selector \".by@href\" found nothing (entry: First headline Ada yesterday Short text & more)",
            "empty page: failed: unexpected answer: items selector \"div.story\" matched nothing (page: Nothing to see here today.)",
        ] {
            XCTAssertTrue(lines.contains(line), "missing: \(line)\n\(result.stderr)")
        }
        XCTAssertTrue(
            server.requests.contains { $0.path == "/api/list" && $0.header("X-Api-Key") == "secret-api-token-9" },
            "{token} is substituted (apibad reads the same URL without headers, concurrently)")

        let json = try aggr("timeline", "--format", "ndjson", "--provider", "api,news")
        let items = try json.stdout.split(separator: "\n").map { try ItemJSONReader.item(from: JSONParser.parse(String($0))) }
        let byID = Dictionary(uniqueKeysWithValues: items.map { ("\($0.provider):\($0.id)", $0) })
        XCTAssertEqual(byID["api:101"]?.url, "\(base)/posts/101", "relative links resolve against the API URL")
        XCTAssertEqual(byID["api:101"]?.author?.name, "张三")
        XCTAssertEqual(byID["api:101"].map { ISOTimestamp.format($0.published) }, "2026-11-20T10:00:00Z", "date_format")
        XCTAssertEqual(byID["api:101"]?.image, "\(base)/img/101.png")
        XCTAssertEqual(byID["api:102"]?.url, "https://elsewhere.example/102")
        XCTAssertEqual(byID["news:n1"]?.title, "First headline")
        XCTAssertEqual(byID["news:n1"]?.url, "\(base)/news/1")
        XCTAssertEqual(byID["news:n1"]?.summary, "Short text & more")
        XCTAssertEqual(byID["news:n1"]?.author?.name, "Ada")
        XCTAssertEqual(byID["news:n1"]?.image, "\(base)/i/1.jpg")
        XCTAssertEqual(byID["news:n2"]?.url, "\(base)/news/2", "relative to the page URL")
        XCTAssertTrue(try aggr("timeline").stdout.contains("Example News"), "the page title labels the section")
    }

    func testConfigMistakesInGenericTypes() throws {
        let cases: [(String, String)] = [
            (
                #"{"id": "j", "type": "json", "options": {"url": "https://x.example/a", "fields": {"title": "t", "link": "l"}}}"#,
                #"providers[0].options: needs "items": the key path of the list, such as "data.list" or "result[*]""#
            ),
            (
                #"{"id": "j", "type": "json", "options": {"url": "https://x.example/a", "items": "a[", "fields": {"title": "t", "link": "l"}}}"#,
                #"providers[0].options.items: "a[" is not a key path (write data.list, result[*], a.b[0].c)"#
            ),
            (
                #"{"id": "j", "type": "json", "options": {"url": "https://x.example/a", "items": "a", "fields": {"titel": "t", "link": "l"}}}"#,
                #"providers[0].options.fields: unknown field "titel" (did you mean "title"?)"#
            ),
            (
                #"{"id": "j", "type": "json", "options": {"url": "https://x.example/a", "items": "a", "fields": {"title": "t"}}}"#,
                #"providers[0].options.fields: needs "link""#
            ),
            (
                #"{"id": "h", "type": "html", "options": {"url": "https://x.example/", "items": "div:hover", "fields": {"title": "a", "link": "a@href"}}}"#,
                "providers[0].options.items: invalid CSS selector at column 4: unsupported pseudo-class ':hover'\n  div:hover\n     ^"
            ),
            (
                #"{"id": "h", "type": "html", "options": {"items": "div", "fields": {"title": "a", "link": "a@href"}}}"#,
                #"providers[0].options: needs "url", or sections such as "url/https://example.com/news""#
            ),
        ]
        for (entry, message) in cases {
            directory.write("providers.json", "{\"providers\": [\(entry)]}")
            let result = try aggr("providers")
            XCTAssertEqual(result.status, 78, entry)
            XCTAssertEqual(result.stderr, "aggr: providers.json: \(message)\n", entry)
        }
    }
}
