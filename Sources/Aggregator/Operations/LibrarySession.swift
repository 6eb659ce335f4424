import Foundation
import Logging
import Synchronization

/// One front end's session with the library: the config in force, the providers, the
/// storage, the HTTP client and the clock, and the verbs every front end needs.
///
/// The CLI, the terminal reader, the web site, the Google Reader API and the watch read,
/// change and refresh the timeline only through a session: none of them opens a database,
/// parses a filter or builds a ``Refresher``. ``dataVersion()`` lets a front end notice
/// writes made by any process (a read mark from the web shows in the reader).
public final class LibrarySession: Sendable {
    /// Where the timeline is kept.
    public let storage: any TimelineStorage
    public let registry: ProviderRegistry
    /// The process environment: provider tokens and cookies are read from it.
    public let environment: [String: String]
    /// The session's notion of now (`AGGR_NOW` pins it for the CLI; tests pin it).
    public let clock: @Sendable () -> Date
    let logger: Logger
    let state: Mutex<State>
    /// Held while providers.json is read, changed and written, so two edits (two apps
    /// subscribing at once) never lose one another.
    let configEdits = Mutex(())
    private let makeHTTP: @Sendable () -> any HTTPClient
    /// The session this one acts for another user beside (``acting(as:)``): its config,
    /// HTTP client and config edits are that session's.
    private let root: LibrarySession?
    /// The database's users, when it has them: each has views of their own.
    let directory: (any UserDirectory)?

    struct State {
        var configuration: Configuration
        /// Moves on with every config change, so cached counts of the old config are dropped.
        var generation = 0
        var http: (any HTTPClient)?
        var counts: CountCache?
        /// The views of this session's user, as last read.
        var ownViews: (views: [NamedView], read: Date)?
    }

    /// Unread counts of the tabs, as of a data version and config generation.
    struct CountCache {
        var version: Int64
        var generation: Int
        var cap: Int
        var taken: Date
        var counts: [TimelineTab: Int]
    }

    /// How long cached unread counts stand while nothing is written: filters with an age
    /// (`age < 2d`) change what they count as time passes.
    static let countLifetime: TimeInterval = 30

    /// A session over `storage`; `http` makes the HTTP client on first use (loading libcurl
    /// costs milliseconds a command that never fetches should not pay).
    public init(
        configuration: Configuration, storage: any TimelineStorage, registry: ProviderRegistry, environment: [String: String],
        http: @escaping @Sendable () -> any HTTPClient = { CurlHTTPClient() }, logger: Logger = Logger(label: "aggr"),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.storage = storage
        self.registry = registry
        self.environment = environment
        self.clock = clock
        self.logger = logger
        makeHTTP = http
        state = Mutex(State(configuration: configuration))
        root = nil
        directory = storage.userDirectory
    }

    private init(actingFor root: LibrarySession, storage: any TimelineStorage) {
        self.storage = storage
        registry = root.registry
        environment = root.environment
        clock = root.clock
        logger = root.logger
        makeHTTP = root.makeHTTP
        state = Mutex(State(configuration: root.shared.state.withLock { $0.configuration }))
        self.root = root
        directory = storage.userDirectory
    }

    /// The session whose config and HTTP client this one uses: its root, or itself.
    var shared: LibrarySession { root ?? self }

    /// A session on the same database, config and HTTP client as user `name` of a shared
    /// database: their read and saved state, labels and marks (`aggr serve` signs users in).
    public func acting(as name: String) throws -> LibrarySession {
        guard let directory = storage.userDirectory else { throw UsersUnavailable() }
        return LibrarySession(actingFor: shared, storage: try directory.storage(actingAs: name))
    }

    /// Opens the timeline at `databasePath`: a SQLite file (created or upgraded when needed;
    /// `readingOnly` skips the write set-up when the file is current, as a command that
    /// never writes wants), or a server database by URL when one of `servers` opens its scheme.
    public static func open(
        configuration: Configuration, databasePath: String, registry: ProviderRegistry, environment: [String: String],
        readingOnly: Bool = false, servers: [any StorageServer] = [], http: @escaping @Sendable () -> any HTTPClient = { CurlHTTPClient() },
        logger: Logger = Logger(label: "aggr"), clock: @escaping @Sendable () -> Date = { Date() }
    ) throws -> LibrarySession {
        let storage = try openStorage(databasePath, environment: environment, readingOnly: readingOnly, servers: servers)
        return LibrarySession(
            configuration: configuration, storage: storage, registry: registry, environment: environment, http: http, logger: logger,
            clock: clock)
    }

    /// The store `address` names: a server database when one of `servers` opens its scheme,
    /// else a SQLite file (read-only when `readingOnly` and the file is current).
    public static func openStorage(
        _ address: String, environment: [String: String], readingOnly: Bool = false, servers: [any StorageServer] = []
    ) throws -> any TimelineStorage {
        if let server = try StorageAddress.server(for: address, among: servers) {
            return try server.open(address, environment: environment, readingOnly: readingOnly)
        }
        return readingOnly ? try Store.forReading(path: address) : try Store(path: address)
    }

    /// The config in force, with the views of the session's user on a database with users
    /// (theirs replace one of the same name); setting it (a reload) takes effect for the
    /// next call.
    public var configuration: Configuration {
        get {
            let configuration = shared.state.withLock { $0.configuration }
            guard directory != nil else { return configuration }
            return configuration.adding(ownViews())
        }
        set {
            shared.state.withLock {
                $0.configuration = newValue
                $0.generation += 1
                $0.counts = nil
            }
        }
    }

    /// The HTTP client, started on first use and shared by every fetch of the session.
    public var http: any HTTPClient {
        shared.state.withLock { state in
            if let http = state.http { return http }
            let http = makeHTTP()
            state.http = http
            return http
        }
    }

    /// A number that changes whenever any process writes something a listing shows.
    public func dataVersion() throws -> Int64 { try storage.dataVersion() }

    // MARK: Tabs and pages

    /// The tabs the config offers: views, All, providers.
    public func tabs() -> [TimelineTab] { TimelineTab.strip(of: configuration) }

    /// The query listing `tab` with the config's hiding rules, narrowed by `filter` (the
    /// filter language); the filter is parsed here, through ``ItemSelection``.
    public func query(for tab: TimelineTab, filter: String? = nil) throws -> TimelineQuery {
        let configuration = configuration
        var query = TimelineQuery()
        query.now = clock()
        var view: String?
        switch tab {
        case .all: break
        case .view(let name):
            guard configuration.views.contains(where: { $0.name == name && $0.filter != nil }) else {
                throw UnknownTabError(tab: tab, file: configuration.file)
            }
            view = name
        case .provider(let id):
            guard configuration.provider(id: id) != nil else { throw UnknownTabError(tab: tab, file: configuration.file) }
            query.providers = [id]
        case .section(let provider, let key):
            query.providers = [provider]
            query.sections = [key]
        case .saved: query.savedOnly = true
        case .read: query.readOnly = true
        case .labelled(let name): query.labels = [name]
        }
        let expression = filter.flatMap { $0.isEmpty ? nil : $0 }
        return try ItemSelection(configuration: configuration, view: view, expression: expression, showHidden: false).applied(to: query)
    }

    /// What a front end lists of a tab.
    public struct PageRequest: Sendable {
        public var tab: TimelineTab
        /// A filter expression narrowing the tab.
        public var filter: String?
        /// Search words: the best matches instead of the newest items, in one page.
        public var search: String?
        public var unreadOnly = false
        /// Where the page starts (from the previous page's ``TimelinePage/nextCursor``).
        public var cursor: TimelineCursor?
        public var limit: Int

        public init(
            tab: TimelineTab, filter: String? = nil, search: String? = nil, unreadOnly: Bool = false, cursor: TimelineCursor? = nil,
            limit: Int
        ) {
            self.tab = tab
            self.filter = filter
            self.search = search
            self.unreadOnly = unreadOnly
            self.cursor = cursor
            self.limit = limit
        }
    }

    /// A page of a tab; a search answers with one page of the best matches.
    ///
    /// Throws ``UnknownTabError``, ``ItemSelection/Failure`` for a filter that does not
    /// parse, and ``SearchError`` for search words the store refuses.
    public func page(_ request: PageRequest) throws -> TimelinePage {
        var query = try query(for: request.tab, filter: request.filter)
        query.unreadOnly = request.unreadOnly
        if let search = request.search {
            let found = try storage.search(
                search, limit: request.limit, providers: query.providers, filters: query.filters, hiding: query.hiding, now: query.now)
            return TimelinePage(items: found, nextCursor: nil)
        }
        query.limit = request.limit
        query.cursor = request.cursor
        return try storage.timeline(query)
    }

    /// A page of any query (a reader app's stream with its own bounds).
    public func timeline(_ query: TimelineQuery) throws -> TimelinePage { try storage.timeline(query) }

    /// The numbers of the items `query` selects, in its order, up to its limit.
    public func refs(_ query: TimelineQuery) throws -> [Int64] { try storage.refs(query) }

    /// One page of `query` as item numbers and places in the order (a reader app's id list).
    public func positions(_ query: TimelineQuery) throws -> TimelinePositions { try storage.positions(query) }

    /// How many items any query selects, counted up to `cap`.
    public func count(_ query: TimelineQuery, cap: Int) throws -> Int { try storage.count(query, cap: cap) }

    /// How many unread items each tab holds (counted up to `cap`), from a cache while no
    /// process has written since it was counted.
    public func unreadCounts(of tabs: [TimelineTab], cap: Int = 1_000) throws -> [TimelineTab: Int] {
        let version = try storage.dataVersion()
        let now = clock()
        let generation = shared.state.withLock { $0.generation }
        let cached = state.withLock { $0.counts }
        var counts: [TimelineTab: Int] = [:]
        if let cached, cached.version == version, cached.generation == generation, cached.cap == cap,
            abs(now.timeIntervalSince(cached.taken)) < Self.countLifetime
        {
            counts = cached.counts
        }
        var counted = false
        for tab in tabs where counts[tab] == nil {
            var query = try query(for: tab)
            query.unreadOnly = true
            counts[tab] = try storage.count(query, cap: cap)
            counted = true
        }
        if counted {
            let current = shared.state.withLock { $0.generation }
            state.withLock {
                if current == generation {
                    $0.counts = CountCache(version: version, generation: generation, cap: cap, taken: now, counts: counts)
                }
            }
        }
        return counts
    }

    /// Every stored section of a configured provider, then the configured sections not
    /// stored yet: what a reader app subscribes to.
    ///
    /// `counted` false leaves unread counts at zero and reads no item (a listing of names).
    public func subscriptions(counted: Bool = true) throws -> [SectionSummary] {
        let configuration = configuration
        var sections = try (counted ? storage.sections() : storage.sectionTitles()).filter {
            configuration.provider(id: $0.provider) != nil
        }
        for entry in configuration.providers {
            for spec in entry.sections where !sections.contains(where: { $0.provider == entry.id && $0.key == spec.key }) {
                sections.append(SectionSummary(provider: entry.id, key: spec.key, title: "\(entry.id) \(spec.key)"))
            }
        }
        return sections
    }

    // MARK: Items and state

    public func item(ref: Int64) throws -> StoredItem? { try storage.item(ref: ref) }

    /// The items numbered `refs` that exist.
    public func items(refs: [Int64]) throws -> [StoredItem] { try storage.items(refs: refs) }

    /// `ITEM` as a user names it: its number (`42`) or `provider:id`.
    public func item(named reference: String) throws -> StoredItem? {
        if let ref = Int64(reference), let stored = try storage.item(ref: ref) { return stored }
        guard let colon = reference.firstIndex(of: ":") else { return nil }
        return try storage.item(provider: String(reference[..<colon]), id: String(reference[reference.index(after: colon)...]))
    }

    /// Marks `refs` read or unread; returns how many exist.
    @discardableResult
    public func setRead(_ refs: [Int64], _ read: Bool) throws -> Int { try storage.markRead(refs: refs, read: read, now: clock()) }

    /// Saves or unsaves `refs`; returns how many exist.
    @discardableResult
    public func setSaved(_ refs: [Int64], _ saved: Bool) throws -> Int {
        try storage.markSaved(refs: refs, saved: saved, now: clock())
    }

    /// Marks every unread item of `tab` (narrowed by `filter`) read; returns how many.
    @discardableResult
    public func markRead(tab: TimelineTab, filter: String? = nil) throws -> Int {
        try markRead(matching: try query(for: tab, filter: filter))
    }

    /// Marks every unread item `query` selects read (a reader app's stream); returns how many.
    @discardableResult
    public func markRead(matching query: TimelineQuery) throws -> Int { try storage.markRead(matching: query, now: clock()) }

}
