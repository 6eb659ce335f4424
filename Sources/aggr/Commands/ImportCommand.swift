import Aggregator
import ArgumentParser
import Foundation

/// `aggr import FILE`: store items given as NDJSON in the output contract shape.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Store items from NDJSON in the output contract shape (as `--format ndjson` prints).",
        discussion: "The whole file is checked first: a bad line stores nothing. Use - for standard input.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The NDJSON file, or - for standard input.")
    var file: String

    func run() async throws {
        try await runReporting {
            let context = CommandContext(options: global)
            let data: Data
            if file == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                guard let contents = FileManager.default.contents(atPath: file) else {
                    throw CLIFailure(message: "\(file): cannot be read", exitCode: CLIFailure.dataError)
                }
                data = contents
            }
            let name = file == "-" ? "<stdin>" : file
            guard let text = String(data: data, encoding: .utf8) else {
                throw CLIFailure(message: "\(name): not UTF-8 text", exitCode: CLIFailure.dataError)
            }
            let items: [Item]
            do {
                items = try ItemJSONReader.items(ndjson: text)
            } catch {
                throw CLIFailure(message: "\(name): \(error)", exitCode: CLIFailure.dataError)
            }
            let store = try context.openStore()
            var total = IngestResult()
            var groups: [String: [Item]] = [:]
            var order: [String] = []
            for item in items {
                let key = item.provider + "\u{0}" + item.section
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append(item)
            }
            for key in order {
                let group = groups[key]!
                let section = Section(provider: group[0].provider, key: group[0].section, title: "\(group[0].provider)/\(group[0].section)")
                total = total + (try store.ingest(group, section: section, now: context.now, keepSectionTitle: true))
            }
            context.notice(
                "imported \(items.count) item\(items.count == 1 ? "" : "s"): \(total.new) new, \(total.updated) updated, \(total.unchanged) unchanged, \(total.tombstoned) previously removed"
            )
        }
    }
}
