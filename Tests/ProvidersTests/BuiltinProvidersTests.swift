import Aggregator
import AggregatorTestSupport
import Providers
import XCTest

final class BuiltinProvidersTests: XCTestCase {
    func testTypeNamesAreUniqueAndValid() {
        let names = BuiltinProviders.types.map { $0.metadata.typeName }
        XCTAssertEqual(Set(names).count, names.count)
        for name in names { XCTAssertTrue(ProviderIdentifier.isValid(name), name) }
    }

    func testRepositoryProvidersJSONIsValidAndIsTheStarterConfig() throws {
        let path = SharedFixtures.repositoryRoot() + "/providers.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertEqual(text, StarterConfig.text, "aggr init writes the repository's default config")
        XCTAssertNoThrow(try ConfigLoader(registry: BuiltinProviders.registry).load(path: path))
    }
}
