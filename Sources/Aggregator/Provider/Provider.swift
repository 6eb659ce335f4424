/// A plugin that turns one upstream site into sections of ``Item``s.
///
/// A type registers under ``ProviderMetadata/typeName``; each providers.json entry of that
/// type builds one instance. Parsing is kept in pure functions from bytes to items so it
/// can be tested on captured payloads without a network.
public protocol Provider: Sendable {
    /// What the type offers; read before any instance exists.
    static var metadata: ProviderMetadata { get }

    /// The name providers.json entries give as `type` (``ProviderMetadata/typeName``).
    ///
    /// Its own requirement so that finding a type by name builds no other type's metadata:
    /// V2EX's, with its check-in time zone, cost `aggr timeline` ~0.9M instructions for a
    /// config without V2EX.
    static var typeName: String { get }

    /// Builds an instance from its checked config entry, throwing ``ConfigError`` for
    /// type-specific problems with the entry's key path.
    init(configuration: ProviderConfiguration) throws(ConfigError)

    /// The entry this instance was built from.
    var configuration: ProviderConfiguration { get }

    /// Fetches one section.
    func fetch(_ section: SectionSpec, context: ProviderContext) async throws -> SectionFetch

    /// The section of this type that follows `page` (for `aggr add URL`), nil when the page
    /// is not on this type's site; throws when it is, but no section can follow it.
    static func section(following page: WebPage) throws(UnsupportedPage) -> String?

    /// The section key that fetches `item`'s thread (a topic's replies, an issue's
    /// comments), or nil when this type has none for it.
    func threadSection(for item: Item) -> String?

    /// Performs `request` upstream (only ever on a user's explicit command); the types
    /// that declare no actions refuse with the reason.
    func perform(_ request: ActionRequest, context: ActionContext) async throws -> ActionOutcome
}

extension Provider {
    /// The metadata's name, for a type that does not declare it on its own.
    public static var typeName: String { metadata.typeName }

    /// No site of its own, unless a type says which pages it follows.
    public static func section(following page: WebPage) throws(UnsupportedPage) -> String? { nil }

    /// No threads, unless a type says how to fetch them.
    public func threadSection(for item: Item) -> String? { nil }

    /// No actions, unless a type performs them.
    public func perform(_ request: ActionRequest, context: ActionContext) async throws -> ActionOutcome {
        throw ActionError(Self.metadata.whyAbsent(request.action))
    }
}

/// What one fetch of one section produced.
public struct SectionFetch: Sendable {
    public var section: Section
    /// The items, or nil when upstream said nothing changed (HTTP 304).
    public var items: [Item]?

    public init(section: Section, items: [Item]?) {
        self.section = section
        self.items = items
    }
}

extension Provider {
    /// `section` as the store lists it, titled `title` (sanitized for a terminal).
    public func describe(_ section: SectionSpec, _ title: String) -> Section {
        Section(provider: configuration.id, key: section.key, title: TerminalText.sanitize(title))
    }

    /// The variable this provider's token is read from: its `token_env`, else the type's
    /// default ("" for a type that never sends one).
    public var tokenVariable: String { Self.metadata.tokenVariable(for: configuration) ?? "" }
}
