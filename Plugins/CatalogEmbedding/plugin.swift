import Foundation
import PackagePlugin

/// Embeds every message catalog in the package's `po/` folder (`en.po`, `zh-Hans.po`, …) in
/// the target's code, so a translator adds a language by adding one file and rebuilding.
@main
struct CatalogEmbedding: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "po")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))) ?? []
        let catalogs = names.filter { $0.hasSuffix(".po") }.sorted().map { folder.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedCatalogs.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(catalogs.count) message catalogs",
                executable: try context.tool(named: "catalog-embed").url,
                arguments: [output.path(percentEncoded: false)] + catalogs.map { $0.path(percentEncoded: false) },
                inputFiles: catalogs,
                outputFiles: [output])
        ]
    }
}
