import Aggregator
import XCTest

@testable import Providers

/// Every section kind a site type's metadata accepts decodes to a route of its own; a kind
/// without one is an error, never some other section (the old `default:` branches).
final class SectionRouteTests: XCTestCase {
    /// A parsed spec for each of `metadata`'s kinds, with sample arguments.
    func specs(_ metadata: ProviderMetadata) throws -> [SectionSpec] {
        try metadata.sections.map { kind in
            let argument: String
            switch kind.argument {
            case .none, .optionalSegment: argument = ""
            case .segments(let names): argument = "/" + names.map { $0 == "id" || $0 == "number" ? "42" : "x" }.joined(separator: "/")
            case .rest: argument = "/x"
            }
            return try SectionSpec.parse(kind.name + argument, for: metadata)
        }
    }

    func testEveryKindHasItsRouteAndNoOtherKindDoes() throws {
        let odd = SectionSpec(key: "commitz/a/b", kind: "commitz", arguments: ["a", "b"])
        var routes: [String] = []
        for spec in try specs(GitHubProvider.metadata) { routes.append("\(try GitHubRoute(spec))") }
        for spec in try specs(GiteeProvider.metadata) { routes.append("\(try GiteeRoute(spec))") }
        for spec in try specs(V2EXProvider.metadata) { routes.append("\(try V2EXRoute(spec))") }
        for spec in try specs(DribbbleProvider.metadata) { routes.append("\(try DribbbleRoute(spec))") }
        XCTAssertEqual(
            routes.count,
            [GitHubProvider.metadata, GiteeProvider.metadata, V2EXProvider.metadata, DribbbleProvider.metadata].map(\.sections.count)
                .reduce(0, +))
        XCTAssertEqual(
            try GitHubRoute(try SectionSpec.parse("commits/a/b", for: GitHubProvider.metadata)), .commits(repo: "a/b"))
        XCTAssertEqual(
            try GitHubRoute(try SectionSpec.parse("search/swift%20nio?sort=stars", for: GitHubProvider.metadata)),
            .search(query: "swift nio", sort: "stars", order: "desc"))
        XCTAssertEqual(
            try V2EXRoute(try SectionSpec.parse("topic/7?source=html", for: V2EXProvider.metadata)),
            .topic(id: 7, fromPage: true))
        XCTAssertEqual(try GiteeRoute(try SectionSpec.parse("user", for: GiteeProvider.metadata)), .user(login: nil))

        XCTAssertThrowsError(try GitHubRoute(odd)) { error in
            XCTAssertEqual(error as? ProviderError, .unknownSection("commitz/a/b"))
            XCTAssertEqual("\(error)", "aggr has no route for section \"commitz/a/b\" of this type (a bug: please report it)")
        }
        XCTAssertThrowsError(try GiteeRoute(odd))
        XCTAssertThrowsError(try V2EXRoute(odd))
        XCTAssertThrowsError(try DribbbleRoute(odd))
    }
}
