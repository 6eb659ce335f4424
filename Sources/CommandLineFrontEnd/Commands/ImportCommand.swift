import Aggregator
import ArgumentParser
import Foundation

/// `aggr import FILE`: store items given as NDJSON in the output contract shape.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: localized("Store items from NDJSON in the output contract shape (as `--format ndjson` prints)."),
        discussion: localized("Streamed in one transaction: a bad line anywhere stores nothing. Use - for standard input."))

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(localized("The NDJSON file, or - for standard input.")))
    var file: String

    func run() throws {
        try runReporting {
            let context = CommandContext(options: global)
            let name = file == "-" ? "<stdin>" : file
            let descriptor = file == "-" ? 0 : open(file, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw CLIFailure(
                    message: localized("\(file): cannot be read (\(String(cString: strerror(errno))))"), exitCode: CLIFailure.dataError)
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
                localized("imported \(summary.items) item: ", plural: "imported \(summary.items) items: ", count: summary.items)
                    + localized("\(total.new) new, \(total.updated) updated, \(total.unchanged) unchanged")
                    + localized(", \(total.tombstoned) previously removed")
            )
        }
    }
}
