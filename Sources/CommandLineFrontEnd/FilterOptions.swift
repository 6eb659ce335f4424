import Aggregator
import Foundation

/// The filter choices listing commands share: a named view, `--where`, and `--all`.
struct FilterOptions {
    var view: String?
    var `where`: String?
    var all: Bool

    /// The selection these options name, or a usage error naming the bad part.
    func selection(_ configuration: Configuration?) throws -> ItemSelection {
        do {
            return try ItemSelection(configuration: configuration, view: view, expression: `where`, showHidden: all)
        } catch .unknownView(let message) {
            throw CLIFailure(message: message, exitCode: CLIFailure.usage)
        } catch .invalidFilter(let error) {
            throw CLIFailure(message: "--where: \(error)", exitCode: CLIFailure.usage)
        }
    }
}
