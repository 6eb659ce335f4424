import AggregatorTestSupport
import XCTest

extension EndToEndTestCase {
    /// A loopback V2EX whose hot list is refreshed into the store, without replies.
    ///
    /// Topics 700001, 700002 and 700003 are stored (refs 1–3); 700001's replies can then be
    /// fetched, while 700003's topic answer is truncated JSON (an upstream fault). Returns
    /// the server, to be stopped.
    func refreshedV2EXHotList() throws -> TestHTTPServer {
        let server = try TestHTTPServer()
        let hot = try fixture("v2ex/hot.json")
        let replies = try fixture("v2ex/replies-700001.json")
        let firstTopic = "[" + hot.components(separatedBy: "    },\n    {")[0].dropFirst(1) + "    }]"
        server.route("/api/topics/hot.json") { _ in .text(hot) }
        server.route("/api/topics/show.json") { request in
            .text(request.query == "id=700001" ? String(firstTopic) : String(hot.prefix(300)))
        }
        server.route("/api/replies/show.json") { _ in .text(replies) }
        directory.write(
            "providers.json", #"{"providers": [{"id": "v2ex", "type": "v2ex", "api_url": "\#(server.baseURL)", "sections": ["hot"]}]}"#)
        let refresh = try aggr("refresh")
        XCTAssertEqual(refresh.status, 0, refresh.stderr)
        XCTAssertEqual(server.requests.filter { $0.path == "/api/replies/show.json" }.count, 0, "the hot list alone has no replies")
        return server
    }
}
