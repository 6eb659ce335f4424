import Aggregator
import ArgumentParser
import Foundation
import Providers

/// `aggr init`: write a starter providers.json to the XDG config directory, never overwriting.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: localized("Create a starter providers.json in the config directory."))

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try runReporting {
            let context = CommandContext(options: global)
            let path = global.config ?? "\(context.locator.configDirectory)/providers.json"
            let manager = FileManager.default
            if manager.fileExists(atPath: path) {
                context.notice(localized("\(path) already exists; left unchanged"))
                return
            }
            let directory = (path as NSString).deletingLastPathComponent
            do {
                try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
                // O_EXCL semantics: never replace a file that appeared meanwhile.
                guard manager.createFile(atPath: path + ".tmp", contents: Data(StarterConfig.text.utf8)) else {
                    throw CLIFailure(message: localized("cannot write \(path)"), exitCode: 1)
                }
                if link(path + ".tmp", path) != 0 {
                    try? manager.removeItem(atPath: path + ".tmp")
                    throw CLIFailure(message: localized("cannot create \(path): \(String(cString: strerror(errno)))"), exitCode: 1)
                }
                try? manager.removeItem(atPath: path + ".tmp")
            } catch let error as CLIFailure {
                throw error
            } catch {
                throw CLIFailure(message: localized("cannot create \(directory): \(error.localizedDescription)"), exitCode: 1)
            }
            context.print(localized("created \(path)") + "\n")
        }
    }
}
