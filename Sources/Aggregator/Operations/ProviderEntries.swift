import Foundation

/// The provider entries of providers.json, changed as a user asks and saved in one write.
///
/// Adding, removing, enabling and disabling entries, following a page or a feed, and
/// importing OPML subscriptions all edit the parsed document, so every other entry, key and
/// order survives; ``save()`` checks the result with the real loader and replaces the file
/// atomically, so a bad edit never reaches it.
public struct ProviderEntries: Sendable {
    /// The file being edited (it need not exist yet).
    public let path: String
    let editor: ConfigEditor
    let document: JSONValue
    var entries: [JSONValue]

    /// Reads the entries of the file at `path` (none when it does not exist).
    public init(path: String, registry: ProviderRegistry) throws(ConfigError) {
        self.path = path
        editor = ConfigEditor(path: path, registry: registry)
        document = try editor.document()
        entries = ConfigEditor.providers(of: document)
    }

    /// The entries' ids, in order.
    public var ids: [String] { entries.compactMap { $0["id"]?.stringValue } }

    /// Appends an entry; `options` values that read as integers or booleans are stored as such.
    public mutating func add(
        id: String, type: String, sections: [String], options: [(key: String, value: String)] = [], tokenEnv: String? = nil,
        interval: String? = nil
    ) throws(ProviderEditError) {
        guard !ids.contains(id) else { throw ProviderEditError(localized("a provider \"\(id)\" exists already")) }
        var members = [JSONMember("id", .string(id)), JSONMember("type", .string(type))]
        if !sections.isEmpty { members.append(JSONMember("sections", .array(sections.map(JSONValue.string)))) }
        let typed = options.map { option in
            JSONMember(
                option.key,
                Int(option.value).map { .number(JSONNumber($0)) }
                    ?? (option.value == "true" ? .bool(true) : option.value == "false" ? .bool(false) : .string(option.value)))
        }
        if !typed.isEmpty { members.append(JSONMember("options", .object(typed))) }
        if let tokenEnv { members.append(JSONMember("token_env", .string(tokenEnv))) }
        if let interval { members.append(JSONMember("interval", .string(interval))) }
        entries.append(.object(members))
    }

    /// Removes entry `id` (its stored items stay until `aggr prune --orphans`).
    public mutating func remove(_ id: String) throws(ProviderEditError) {
        entries.remove(at: try index(of: id))
    }

    /// Sets (`false`) or clears (`true`) `"enabled": false` on entry `id`.
    public mutating func setEnabled(_ enabled: Bool, id: String) throws(ProviderEditError) {
        let index = try index(of: id)
        guard case .object(var members) = entries[index] else { return }
        members.removeAll { $0.key == "enabled" }
        if !enabled { members.append(JSONMember("enabled", .bool(false))) }
        entries[index] = .object(members)
    }

    /// Stops reading section `key` of `entry`: the section leaves its entry, or the entry
    /// goes when it was its only one (stored items stay until `aggr prune --orphans`); says
    /// what it did.
    public mutating func unfollow(_ entry: ProviderConfiguration, section key: String) throws(ProviderEditError) -> String {
        let index = try index(of: entry.id)
        guard let position = entry.sections.firstIndex(where: { $0.key == key }) else {
            throw ProviderEditError(localized("provider \"\(entry.id)\" has no section \"\(key)\""))
        }
        guard entry.sections.count > 1, case .object(var members) = entries[index] else {
            entries.remove(at: index)
            return "provider \(entry.id)"
        }
        // The sections as written (their real text, credentials included), else the
        // type's defaults by key; the parsed list has the same order.
        var written: [JSONValue] = entry.sections.map { .string($0.key) }
        if case .array(let existing)? = entries[index]["sections"], existing.count == entry.sections.count { written = existing }
        written.remove(at: position)
        members.removeAll { $0.key == "sections" }
        members.insert(JSONMember("sections", .array(written)), at: min(2, members.count))
        if case .object(var titles)? = members.first(where: { $0.key == "titles" })?.value {
            titles.removeAll { $0.key == key }
            members.removeAll { $0.key == "titles" }
            if !titles.isEmpty { members.append(JSONMember("titles", .object(titles))) }
        }
        entries[index] = .object(members)
        return localized("section \(key) of \(entry.id)")
    }

    /// Names section `key` of entry `id` `title` (in its `titles`), or drops the name given
    /// before when `title` is nil.
    public mutating func setTitle(_ title: String?, section key: String, id: String) throws(ProviderEditError) {
        let index = try index(of: id)
        guard case .object(var members) = entries[index] else { return }
        var titles: [JSONMember] = []
        if case .object(let existing)? = members.first(where: { $0.key == "titles" })?.value { titles = existing }
        titles.removeAll { $0.key == key }
        if let title { titles.append(JSONMember(key, .string(title))) }
        members.removeAll { $0.key == "titles" }
        if !titles.isEmpty { members.append(JSONMember("titles", .object(titles))) }
        entries[index] = .object(members)
    }

    /// Adds `page`'s section to the first entry of its type on the default site, or as a new
    /// entry; says what it did.
    public mutating func follow(_ page: RecognizedPage) -> String {
        if let index = entries.firstIndex(where: { $0["type"]?.stringValue == page.type && $0["api_url"] == nil && $0["web_url"] == nil }),
            case .object(var members) = entries[index]
        {
            let id = members.first { $0.key == "id" }?.value.stringValue ?? page.type
            var sections: [JSONValue] = []
            if case .array(let existing)? = entries[index]["sections"] { sections = existing }
            if sections.contains(.string(page.section)) { return localized("nothing: \(id) already has \(page.section)") }
            sections.append(.string(page.section))
            members.removeAll { $0.key == "sections" }
            members.insert(JSONMember("sections", .array(sections)), at: min(2, members.count))
            entries[index] = .object(members)
            return localized("section \(page.section) to \(id)")
        }
        let id = ConfigEditor.uniqueID(from: page.type, taken: Set(ids))
        entries.append(
            .object([
                JSONMember("id", .string(id)), JSONMember("type", .string(page.type)),
                JSONMember("sections", .array([.string(page.section)])),
            ]))
        return "provider \(id) (\(page.type) \(page.section))"
    }

    /// Adds a feed provider for `url`, its id derived from `title` (else the host); nil when
    /// a feed entry or `url/` section already reads that URL.
    public mutating func addFeed(url: String, title: String) -> String? {
        guard !followedFeeds.contains(url) else { return nil }
        let id = ConfigEditor.uniqueID(from: title.isEmpty ? (URLComponents(string: url)?.host ?? "feed") : title, taken: Set(ids))
        entries.append(
            .object([
                JSONMember("id", .string(id)), JSONMember("type", .string("feed")),
                JSONMember("options", .object([JSONMember("url", .string(url))])),
            ]))
        return id
    }

    /// Adds a feed provider for each subscription not followed yet; the ids and URLs added.
    public mutating func importSubscriptions(_ subscriptions: [OPML.Subscription]) -> [(id: String, url: String)] {
        subscriptions.compactMap { subscription in
            addFeed(url: subscription.feedURL, title: subscription.title).map { ($0, subscription.feedURL) }
        }
    }

    /// The feed URLs already read: feed entries' `options.url` and `url/…` sections.
    var followedFeeds: Set<String> {
        var known = Set(entries.compactMap { $0["options"]?["url"]?.stringValue })
        for entry in entries {
            if case .array(let sections)? = entry["sections"] {
                for case .string(let section) in sections where section.hasPrefix("url/") { known.insert(String(section.dropFirst(4))) }
            }
        }
        return known
    }

    /// Checks the edited document and writes it in place of the file.
    @discardableResult
    public func save() throws(ConfigError) -> Configuration {
        try editor.save(ConfigEditor.replacingProviders(in: document, with: entries))
    }

    func index(of id: String) throws(ProviderEditError) -> Int {
        guard let index = entries.firstIndex(where: { $0["id"]?.stringValue == id }) else {
            let hint = NearestName.suggestion(for: id, among: ids).map { localized(" (did you mean \"\($0)\"?)") } ?? ""
            throw ProviderEditError(localized("no provider \"\(id)\"\(hint)"))
        }
        return index
    }
}

/// An edit the entries cannot take: an id that exists already, or none that does.
public struct ProviderEditError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
