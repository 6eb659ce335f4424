import Foundation

/// One section of one provider, as a reader app subscribes to it.
public struct SubscriptionName: Sendable, Hashable {
    public var provider: String
    public var section: String

    public init(provider: String, section: String) {
        self.provider = provider
        self.section = section
    }
}

/// Subscriptions as apps manage them: their sites, feeds and names, following an address,
/// unfollowing, renaming and importing, each saved to providers.json in one atomic edit.
extension LibrarySession {
    /// The site provider `id` reads, for links back to it: its `web_url`, its type's site,
    /// else the origin of the feed it reads (credentials removed); nil when none is known.
    public func siteURL(of id: String) -> String? {
        guard let entry = configuration.provider(id: id) else { return nil }
        if let metadata = registry.type(named: entry.type)?.metadata, case let web = metadata.webURL(for: entry), !web.isEmpty {
            return web
        }
        guard let feed = upstreamFeedURL(of: SubscriptionName(provider: id, section: entry.sections.first?.key ?? "")),
            let components = URLComponents(string: feed), let scheme = components.scheme, let host = components.host
        else { return nil }
        return "\(scheme)://\(host)\(components.port.map { ":\($0)" } ?? "")/"
    }

    /// The feed `subscription` reads upstream (a feed entry's `url`, a `url/…` section's
    /// address), credentials redacted; nil for sections of a site only aggr reads.
    public func upstreamFeedURL(of subscription: SubscriptionName) -> String? {
        if subscription.section.hasPrefix("url/") { return SecretRedactor.redact(url: String(subscription.section.dropFirst(4))) }
        guard let entry = configuration.provider(id: subscription.provider), entry.type == "feed" else { return nil }
        return entry.stringOption("url").map(SecretRedactor.redact(url:))
    }

    /// The feed a reader follows for provider `id`: the upstream feed of a feed provider,
    /// else the feed aggr serves of it at `base` (only aggr can read V2EX, GitHub, Gitee or
    /// Dribbble for it).
    public func readerFeedURL(of id: String, base: String) -> String {
        if let entry = configuration.provider(id: id), entry.type == "feed", let url = entry.stringOption("url") {
            return SecretRedactor.redact(url: url)
        }
        return "\(base)/feeds/provider/\(PercentEncoding.component(id)).atom"
    }

    /// The subscriptions as an OPML document: a folder per provider with the feed a reader
    /// follows for it (``readerFeedURL(of:base:)``) and its site.
    public func subscriptionOPML(base: String) -> String {
        let configuration = configuration
        let groups = configuration.providers.map { entry in
            (
                folder: entry.id,
                feeds: [
                    OPML.Subscription(title: entry.id, feedURL: readerFeedURL(of: entry.id, base: base), siteURL: siteURL(of: entry.id))
                ]
            )
        }
        // verbatim: a served feed's title: data, the same in every language
        return OPML.subscriptionList(groups, title: "aggr subscriptions", now: clock())
    }

    /// The name `subscription` shows: the user's (`titles` in providers.json), else `stored`.
    public func title(of subscription: SubscriptionName, stored: String?) -> String {
        configuration.provider(id: subscription.provider)?.titles[subscription.section] ?? stored ?? subscription.provider
    }

    /// Follows `address` as `aggr add` does (a known site's page becomes a section of its
    /// provider, else the feed the page is or advertises) and saves providers.json; the
    /// subscription that now reads it, whether added or followed already.
    public func follow(_ address: String, discovery: FeedDiscovery) async throws -> SubscriptionName {
        guard WebURL.isHTTP(address) else { throw FollowError(localized("\"\(address)\" is not an http or https address")) }
        let page: RecognizedPage?
        do {
            page = try registry.recognize(address)
        } catch {
            throw FollowError(error.description)
        }
        let feed = page == nil ? try await discovery.find(address) : nil
        let followed = try editEntries { entries in
            if let page {
                _ = entries.follow(page)
                return { configuration in
                    let entry = configuration.providers.first { $0.type == page.type && $0.sections.contains { $0.key == page.section } }
                    return entry.map { SubscriptionName(provider: $0.id, section: page.section) }
                }
            }
            guard let feed else { return { _ in nil } }
            _ = entries.addFeed(url: feed.url, title: feed.title)
            return { configuration in
                for entry in configuration.providers {
                    if entry.type == "feed", entry.stringOption("url") == feed.url, let section = entry.sections.first {
                        return SubscriptionName(provider: entry.id, section: section.key)
                    }
                    if let section = entry.sections.first(where: { $0.kind == "url" && $0.argument == feed.url }) {
                        return SubscriptionName(provider: entry.id, section: section.key)
                    }
                }
                return nil
            }
        }
        guard let followed else { throw FollowError(localized("\(SecretRedactor.redact(url: address)): saved, but no entry reads it")) }
        return followed
    }

    /// Stops reading `subscription` (its section leaves its entry, or the entry goes with
    /// its only section); stored items stay until `aggr prune --orphans`.
    public func unfollow(_ subscription: SubscriptionName) throws {
        guard let entry = configuration.provider(id: subscription.provider) else {
            throw ProviderEditError(localized("no provider \"\(subscription.provider)\" in \(configuration.file)"))
        }
        _ = try editEntries { entries in
            _ = try entries.unfollow(entry, section: subscription.section)
            return { _ in subscription }
        }
    }

    /// Names `subscription` `title` in providers.json (nil or empty: upstream's name again).
    public func rename(_ subscription: SubscriptionName, to title: String?) throws {
        guard let entry = configuration.provider(id: subscription.provider),
            entry.sections.contains(where: { $0.key == subscription.section })
        else {
            throw ProviderEditError(localized("no subscription \(subscription.provider)/\(subscription.section) in \(configuration.file)"))
        }
        let name = title.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
        _ = try editEntries { entries in
            try entries.setTitle(name, section: subscription.section, id: subscription.provider)
            return { _ in subscription }
        }
    }

    /// Adds a feed provider for each feed of the OPML document `bytes` not followed yet;
    /// the ids and URLs added.
    public func importSubscriptions(opml bytes: [UInt8], file: String) throws -> [(id: String, url: String)] {
        let subscriptions = try OPML.subscriptions(in: bytes, file: file)
        guard !subscriptions.isEmpty else { throw FollowError(localized("\(file) lists no feeds (outlines with an http or https xmlUrl)")) }
        var added: [(id: String, url: String)] = []
        _ = try editEntries { entries in
            added = entries.importSubscriptions(subscriptions)
            return { _ in nil }
        }
        return added
    }

    /// Reads providers.json, applies `edit`, saves it (checked by the real loader, written
    /// atomically) and puts the saved config in force; what `edit`'s finder makes of it.
    func editEntries(
        _ edit: (inout ProviderEntries) throws -> (Configuration) -> SubscriptionName?
    ) throws -> SubscriptionName? {
        try shared.configEdits.withLock { _ in
            var entries = try ProviderEntries(path: configuration.file, registry: registry)
            let original = entries.entries
            let find = try edit(&entries)
            // Nothing changed (a feed followed already): the file is left as it is.
            guard entries.entries != original else { return find(configuration) }
            let saved = try entries.save()
            configuration = saved
            return find(saved)
        }
    }
}
