import Aggregator
import Foundation

/// The language chosen before the arguments are parsed, so help and parse errors speak it.
///
/// `--lang` (taken out of the arguments; every command accepts it) over the environment
/// (`LC_ALL`, `LC_MESSAGES`, `LANG`). The config's `"language"` applies once the config is
/// read, unless `--lang` was given.
enum LanguageChoice {
    /// The `--lang` value given, if any.
    nonisolated(unsafe) static var flag: String?

    /// `arguments` without `--lang X`/`--lang=X`, the process's language set.
    static func apply(_ arguments: [String]) throws -> [String] {
        var rest: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                rest += arguments[index...]
                break
            }
            if argument == "--lang" {
                guard index + 1 < arguments.count else {
                    throw CLIFailure(message: localized("--lang needs a language, such as en or zh-Hans"), exitCode: CLIFailure.usage)
                }
                flag = arguments[index + 1]
                index += 2
                continue
            }
            if argument.hasPrefix("--lang=") {
                flag = String(argument.dropFirst(7))
                index += 1
                continue
            }
            rest.append(argument)
            index += 1
        }
        do {
            try Localization.use(Localization.choose(flag: flag, configured: nil, environment: ProcessEnvironment.variables))
        } catch {
            // An unknown language, or a catalog in AGGR_LOCALE_DIR that does not parse.
            throw CLIFailure(message: "\(error)", exitCode: CLIFailure.usage)
        }
        return rest
    }
}
