import Aggregator
import ArgumentParser
import Foundation

/// `aggr import FILE`: store items given as NDJSON in the output contract shape.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Store items from NDJSON in the output contract shape (as `--format ndjson` prints).",
        discussion: "Streamed in one transaction: a bad line anywhere stores nothing. Use - for standard input.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The NDJSON file, or - for standard input.")
    var file: String

    func run() throws {
        try runReporting {
            let context = CommandContext(options: global)
            let name = file == "-" ? "<stdin>" : file
            let descriptor = file == "-" ? 0 : open(file, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw CLIFailure(message: "\(file): cannot be read (\(String(cString: strerror(errno))))", exitCode: CLIFailure.dataError)
            }
            defer { if descriptor != 0 { close(descriptor) } }
            let summary: ItemImport.Summary
            do {
                summary = try context.session().importItems(from: descriptor)
            } catch let failure as ItemImport.Failure {
                throw CLIFailure(message: "\(name): \(failure)", exitCode: CLIFailure.dataError)
            }
            let total = summary.result
            context.notice(
                "imported \(summary.items) item\(summary.items == 1 ? "" : "s"): \(total.new) new, \(total.updated) updated, \(total.unchanged) unchanged, \(total.tombstoned) previously removed"
            )
        }
    }
}
