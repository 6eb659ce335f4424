import Aggregator
import AggregatorTestSupport
import Providers
import XCTest

final class BuiltinProvidersTests: XCTestCase {
    func testTypeNamesAreUniqueAndValid() {
        let names = BuiltinProviders.types.map { $0.metadata.typeName }
        XCTAssertEqual(Set(names).count, names.count)
        for name in names { XCTAssertTrue(ProviderIdentifier.isValid(name), name) }
        // The registry finds a type by the name it declares beside its metadata: they agree.
        for type in BuiltinProviders.types {
            XCTAssertEqual(type.typeName, type.metadata.typeName)
            XCTAssertEqual(
                BuiltinProviders.registry.type(named: type.metadata.typeName).map { ObjectIdentifier($0) }, ObjectIdentifier(type))
        }
        XCTAssertNil(BuiltinProviders.registry.type(named: "nonesuch"))
    }

    func testRepositoryProvidersJSONIsValidAndIsTheStarterConfig() throws {
        let path = SharedFixtures.repositoryRoot() + "/providers.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertEqual(text, StarterConfig.text, "aggr init writes the repository's default config")
        XCTAssertNoThrow(try ConfigLoader(registry: BuiltinProviders.registry).load(path: path))
    }

    func testThreadSectionsAreSectionsTheTypeAccepts() throws {
        let text =
            #"{"providers": [{"id": "v", "type": "v2ex", "sections": ["hot"]}, {"id": "g", "type": "gitee", "sections": ["featured"]}, "#
            + #"{"id": "h", "type": "github", "sections": ["trending"]}]}"#
        let configuration = try ConfigLoader(registry: BuiltinProviders.registry).parse(bytes: Array(text.utf8), file: "providers.json")
        let providers = try configuration.providers.map { entry in
            try XCTUnwrap(BuiltinProviders.registry.type(named: entry.type)).init(configuration: entry)
        }
        let (v2ex, gitee, github) = (providers[0], providers[1], providers[2])
        func item(_ provider: String, _ id: String, _ kind: ItemKind) -> Item {
            Item(provider: provider, section: "s", id: id, kind: kind, title: "t", url: "https://example.org/", published: Date())
        }
        let cases: [(any Provider, Item, String?)] = [
            (v2ex, item("v", "1147555", .topic), "topic/1147555"),
            (v2ex, item("v", "reply/9", .reply), nil),
            (v2ex, item("v", "12a", .topic), nil),
            (gitee, item("g", "kit101/drone-yml#I4CD5P", .issue), "issue/kit101/drone-yml/I4CD5P"),
            (gitee, item("g", "kit101/drone-yml!3", .pull), nil),
            (gitee, item("g", "a/b/c#1", .issue), nil),
            (github, item("h", "PyGithub/PyGithub#3042", .issue), "issue/PyGithub/PyGithub/3042"),
            (github, item("h", "rsn491/PyGithub#1", .pull), "issue/rsn491/PyGithub/1"),
            (github, item("h", "o/r@0123abc", .commit), nil),
            (github, item("h", "o/r#x", .issue), nil),
        ]
        for (provider, item, expected) in cases {
            let key = provider.threadSection(for: item)
            XCTAssertEqual(key, expected, item.id)
            if let key {
                XCTAssertNoThrow(try SectionSpec.parse(key, for: type(of: provider).metadata), key)
            }
        }
    }
}
