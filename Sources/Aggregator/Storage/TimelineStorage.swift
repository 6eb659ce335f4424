import Foundation

/// Where the timeline is kept: what the library session, the refresher and the watch ask of
/// a storage backend.
///
/// ``Store`` (SQLite through GRDB) is the one backend today. A backend compiles
/// ``TimelineQuery`` (filters and hiding rules arrive as ``FilterExpression`` trees, never
/// as SQL) in its own dialect, numbers items with a stable, increasing ``StoredItem/ref``,
/// keeps writes atomic per call, and moves ``dataVersion()`` on with every write that changes
/// what a listing shows.
public protocol TimelineStorage: FetchMemory {
    /// Where the data lives, for messages (a file path, a connection name without secrets).
    var location: String { get }
    /// Whether every write fails (a file this process may only read).
    var isReadOnly: Bool { get }

    // MARK: Reading

    /// One page of `query`.
    func timeline(_ query: TimelineQuery) throws -> TimelinePage
    /// The numbers of the items `query` selects, in its order, up to its limit.
    func refs(_ query: TimelineQuery) throws -> [Int64]
    /// One page of `query` as item numbers and places in the order, without the rows.
    func positions(_ query: TimelineQuery) throws -> TimelinePositions
    /// How many items `query` selects, counted up to `cap`.
    func count(_ query: TimelineQuery, cap: Int) throws -> Int
    /// The stored replies of `topic`, oldest first.
    func thread(of topic: StoredItem, limit: Int) throws -> [StoredItem]
    /// The item numbered `ref`.
    func item(ref: Int64) throws -> StoredItem?
    /// The items numbered `refs` that exist, in the order asked.
    func items(refs: [Int64]) throws -> [StoredItem]
    /// Item `id` of `provider`.
    func item(provider: String, id: String) throws -> StoredItem?
    /// Items matching the search words `text`, best first.
    func search(
        _ text: String, limit: Int, providers: [String], filters: [FilterExpression], hiding: HidingRules?, now: Date
    ) throws -> [StoredItem]
    /// Per provider, how many stored items `filter` matches.
    func count(matching filter: FilterExpression, now: Date) throws -> [FilterMatchCount]
    /// Every stored section with its unread count.
    func sections() throws -> [SectionSummary]
    /// Every stored section with its title, uncounted.
    func sectionTitles() throws -> [SectionSummary]
    /// Stored and unread items per provider.
    func itemCounts() throws -> [String: ProviderItemCount]
    /// The number of the newest stored item (0 when none is).
    func latestRef() throws -> Int64
    /// A number that changes with every write that changes what a listing shows.
    func dataVersion() throws -> Int64

    // MARK: Read and saved state

    @discardableResult func markRead(refs: [Int64], read: Bool, now: Date) throws -> Int
    @discardableResult func markSaved(refs: [Int64], saved: Bool, now: Date) throws -> Int
    @discardableResult func markAllRead(providers: [String], now: Date) throws -> Int
    @discardableResult func markRead(matching query: TimelineQuery, now: Date) throws -> Int

    // MARK: Labels users put on items

    /// Puts `label` on the items numbered `refs` (or takes it off); returns how many exist.
    @discardableResult func setLabel(_ label: String, on refs: [Int64], _ labelled: Bool) throws -> Int
    /// The labels of each of `refs` that has any, sorted.
    func labels(of refs: [Int64]) throws -> [Int64: [String]]
    /// Every label in use and how many items carry it, by name.
    func labelUse() throws -> [(label: String, items: Int)]
    /// Renames `label` on every item that carries it (merging into `newName`); returns how many.
    @discardableResult func renameLabel(_ label: String, to newName: String) throws -> Int
    /// Takes `label` off every item; returns how many carried it.
    @discardableResult func removeLabel(_ label: String) throws -> Int

    // MARK: What the user did upstream

    /// The actions done on each of `refs` that has any.
    func actionStates(of refs: [Int64]) throws -> [Int64: Set<ItemAction>]
    /// Records `action` as done on `ref` (or undone), moving counter `metric` (`likes`,
    /// `stars`, `replies`, `comments`) by `delta` in the same write; false when no such item.
    @discardableResult func setActionState(
        _ action: ItemAction, on ref: Int64, done: Bool, metric: String?, delta: Int, now: Date
    ) throws
        -> Bool
    /// `provider`'s last daily check-in, or nil when it never checked in.
    func lastCheckin(provider: String) throws -> CheckinRecord?
    /// Keeps `record` as `provider`'s last check-in.
    func saveCheckin(_ record: CheckinRecord, provider: String) throws

    // MARK: Full text

    /// The article extracted from item `ref`'s page, if one was.
    func article(of ref: Int64) throws -> Article?
    /// Keeps `article` as item `ref`'s full text; false when there is no such item.
    @discardableResult func saveArticle(_ article: Article, of ref: Int64, now: Date) throws -> Bool

    // MARK: Storing and removing

    @discardableResult func ingest(
        _ items: [Item], section: Section, now: Date, keepSectionTitle: Bool, validators: [String: HTTPValidators], listed: Bool
    ) throws -> IngestResult
    /// Stores every batch `nextBatch` gives until it gives nil, in one transaction, or nothing
    /// when it throws. `nextBatch` runs on a thread of its own, beside the writes.
    func ingestStream(now: Date, nextBatch: @escaping @Sendable () throws -> [Item]?) throws -> IngestResult
    /// Stores `writes` (a refresh's sections and provider states), several to a transaction
    /// where the backend can; a result per write, in order.
    func write(_ writes: [QueuedWrite]) -> [Result<IngestResult, any Error>]
    func prune(_ policy: RetentionPolicy, now: Date) throws -> PruneResult
    @discardableResult func remove(refs: [Int64], now: Date) throws -> Int
    func removeProviders(notIn keep: [String], now: Date) throws -> Int
    func checkIntegrity() throws

    // MARK: Sharing the refresh between processes

    /// Whether several processes refresh this store at once, each claiming the providers it
    /// fetches (a server database); false where one process refreshes (a SQLite file, under
    /// the watch lock).
    var sharesRefresh: Bool { get }
    /// Claims `providers` for `worker` until `until`: those no other worker holds a claim on
    /// that lasts past `now`. Claims are leases: a worker that dies leaves them to expire.
    func claimRefresh(_ providers: [String], worker: String, now: Date, until: Date) throws -> RefreshClaims
    /// Gives up `worker`'s claims on `providers` (their refresh ended and its state is saved).
    func releaseRefresh(_ providers: [String], worker: String) throws
    /// The database's users, when it has them (a server database); nil for a SQLite file,
    /// which has one. A property rather than a cast: a failed cast to a protocol costs a
    /// scan of the conformance tables at every start.
    var userDirectory: (any UserDirectory)? { get }
    /// The states of `providers` and of every provider told to wait for its rate limit past
    /// `now` (what a worker checks again after a claim), by provider.
    func providerStates(of providers: [String], rateLimitedAfter now: Date) throws -> [String: ProviderState]

    // MARK: Copying a whole database

    /// Hands every stored fact to `batch`, a few thousand at a time, read from one snapshot:
    /// sections first, then items in number order, then what refers to them.
    func export(_ batch: ([StoredRecord]) throws -> Void) throws
    /// Stores every batch `nextBatch` gives, in one transaction, into this store, which must
    /// hold no item or section yet; item numbers are kept.
    func importRecords(_ nextBatch: () throws -> [StoredRecord]?) throws -> StorageCopyCount

    // MARK: Bookkeeping

    func providerStates() throws -> [String: ProviderState]
    func saveProviderState(_ state: ProviderState) throws
    func saveValidators(_ validators: HTTPValidators, for url: String, provider: String, now: Date) throws
    func notificationMarks() throws -> [String: Int64]
    func setNotificationMark(rule name: String, ref: Int64, now: Date) throws
    /// Moves rule `name`'s mark from `from` to `to` only if it is still at `from`: whether
    /// it moved. Of several workers that saw the same mark, one takes the items between
    /// and notifies; the others find it moved.
    func advanceNotificationMark(rule name: String, from: Int64, to: Int64) throws -> Bool
    /// The icon kept for `site` (an origin), or nil when none was fetched yet.
    func siteIcon(_ site: String) throws -> SiteIcon?
    /// Every icon kept with an image.
    func siteIcons() throws -> [SiteIcon]
    /// Keeps `icon` for its site, replacing what was kept.
    func saveSiteIcon(_ icon: SiteIcon) throws
    func installationSecret(_ purpose: String, now: Date) throws -> String
    func rotateInstallationSecret(_ purpose: String, now: Date) throws
    /// The live browser session whose cookie hashes to `idHash` (an expired one is nil).
    func webSession(_ idHash: String, now: Date) throws -> WebSessionRecord?
    /// Keeps `session` (replacing one with its hash), dropping sessions that have expired.
    func saveWebSession(_ session: WebSessionRecord, now: Date) throws
    /// Ends the session whose cookie hashes to `idHash`.
    func endWebSession(_ idHash: String) throws
}

/// The defaults callers through the protocol get, as ``Store``'s own methods give them.
extension TimelineStorage {
    /// One user and no directory.
    public var userDirectory: (any UserDirectory)? { nil }

    /// One process refreshes: every claim is granted and nothing is held.
    public var sharesRefresh: Bool { false }

    public func claimRefresh(_ providers: [String], worker: String, now: Date, until: Date) throws -> RefreshClaims {
        RefreshClaims(granted: Set(providers))
    }

    public func releaseRefresh(_ providers: [String], worker: String) throws {}

    /// Every state: a store with few providers' states reads them all.
    public func providerStates(of providers: [String], rateLimitedAfter now: Date) throws -> [String: ProviderState] {
        try providerStates()
    }

    public func count(_ query: TimelineQuery) throws -> Int { try count(query, cap: 1_000) }
    public func thread(of topic: StoredItem) throws -> [StoredItem] { try thread(of: topic, limit: 500) }

    @discardableResult public func markRead(refs: [Int64], read: Bool = true) throws -> Int {
        try markRead(refs: refs, read: read, now: Date())
    }

    @discardableResult public func markSaved(refs: [Int64], saved: Bool = true) throws -> Int {
        try markSaved(refs: refs, saved: saved, now: Date())
    }

    public func installationSecret(_ purpose: String) throws -> String { try installationSecret(purpose, now: Date()) }

    /// Stores one fetch of a section (its title replacing the stored one).
    @discardableResult public func ingest(
        _ items: [Item], section: Section, now: Date, validators: [String: HTTPValidators] = [:], listed: Bool = true
    ) throws -> IngestResult {
        try ingest(items, section: section, now: now, keepSectionTitle: false, validators: validators, listed: listed)
    }

    public func setNotificationMark(rule name: String, ref: Int64) throws {
        try setNotificationMark(rule: name, ref: ref, now: Date())
    }

    /// Items matching the search words `text`, best first, ages counted from now.
    public func search(
        _ text: String, limit: Int = 40, providers: [String] = [], filters: [FilterExpression] = [], hiding: HidingRules? = nil
    ) throws -> [StoredItem] {
        try search(text, limit: limit, providers: providers, filters: filters, hiding: hiding, now: Date())
    }

    @discardableResult public func markAllRead(providers: [String] = []) throws -> Int {
        try markAllRead(providers: providers, now: Date())
    }

    public func prune(_ policy: RetentionPolicy) throws -> PruneResult { try prune(policy, now: Date()) }

    @discardableResult public func remove(refs: [Int64]) throws -> Int { try remove(refs: refs, now: Date()) }

    public func removeProviders(notIn keep: [String]) throws -> Int { try removeProviders(notIn: keep, now: Date()) }

    public func saveValidators(_ validators: HTTPValidators, for url: String, provider: String) throws {
        try saveValidators(validators, for: url, provider: provider, now: Date())
    }
}
