import Aggregator
import ArgumentParser
import Foundation

/// `aggr add <url>`: follow a site by its address.
struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: localized("Follow a page by its address: V2EX, GitHub, Gitee and Dribbble pages, feeds, or pages that advertise a feed."),
        discussion:
            localized(
                "A known site's page becomes a section of that site's provider (added to an existing entry of that type when there is one)."
            ))

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The address, such as https://www.v2ex.com/go/swift or https://blog.example.com/")
    var url: String

    @Flag(help: ArgumentHelp(localized("Only print what would be added.")))
    var dryRun = false

    func run() async throws {
        try await runReporting {
            let context = CommandContext(options: global)
            guard WebURL.isHTTP(url) else {
                throw CLIFailure(message: localized("\"\(url)\" is not an http or https address"), exitCode: CLIFailure.usage)
            }
            var entries = try ProviderEntries(path: context.editablePath, registry: context.registry)
            let outcome: FollowOutcome
            do {
                outcome = try await entries.follow(url, registry: context.registry, discovery: FeedDiscovery(http: CurlHTTPClient()))
            } catch {
                throw CLIFailure(message: "\(error)", exitCode: 1)
            }
            switch outcome {
            case .alreadyFollowed(let feed):
                context.notice(localized("\(feed) is already followed; nothing added"))
            case .added(let description) where dryRun:
                context.print(localized("would add \(description)\n"))
            case .added(let description):
                try entries.save()
                context.print(localized("added \(description) in \(entries.path)\n"))
            }
        }
    }
}
