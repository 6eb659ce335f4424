import Foundation

/// Acting upstream on what one reads: replying, thanking, favouriting, liking, starring,
/// reacting and the daily check-in, the one operation every front end calls.
///
/// An action is only ever sent on a user's explicit command (or the configured daily
/// check-in): refresh never calls this. The store shows the new state at once (a like
/// counted, a topic favourited) and takes it back when the site refuses; a reply or
/// comment the site made is stored in its thread. Nothing secret reaches a message: the
/// provider's token and session are redacted from every error.
public struct ItemActions: Sendable {
    public let session: LibrarySession

    public init(session: LibrarySession) {
        self.session = session
    }

    /// One action on one item (or, for a check-in, on a provider's site).
    public struct Order: Sendable {
        public var action: ItemAction
        public var text: String?
        public var reaction: String?
        public var undo: Bool
        /// Send nothing: note each request instead (``Result/planned``).
        public var dryRun: Bool

        public init(_ action: ItemAction, text: String? = nil, reaction: String? = nil, undo: Bool = false, dryRun: Bool = false) {
            self.action = action
            self.text = text
            self.reaction = reaction
            self.undo = undo
            self.dryRun = dryRun
        }
    }

    /// What an action did.
    public struct Result: Sendable {
        public var provider: String
        /// One line for the user.
        public var message: String
        /// The site said it was done before (a success all the same).
        public var alreadyDone: Bool
        /// What a dry run would have sent, secrets redacted.
        public var planned: [PlannedRequest]
        /// Replies and comments the action made, as stored.
        public var stored: [StoredItem]
        public var streak: Int?
    }

    /// A request as a dry run shows it: method, URL and form fields or body, with tokens,
    /// cookies and `token=`-style parameters redacted.
    public struct PlannedRequest: Sendable, Equatable {
        public var method: String
        public var url: String
        public var headers: [(String, String)]
        public var body: String?

        public static func == (a: Self, b: Self) -> Bool {
            a.method == b.method && a.url == b.url && a.body == b.body
                && a.headers.map { "\($0.0): \($0.1)" } == b.headers.map { "\($0.0): \($0.1)" }
        }
    }

    // MARK: What can be done

    /// The provider type of configured provider `id`, or a clear error.
    func providerType(_ id: String) throws(ActionError) -> (entry: ProviderConfiguration, type: any Provider.Type) {
        let configuration = session.configuration
        guard let entry = configuration.provider(id: id) else {
            throw ActionError(localized("provider \"\(id)\" is no longer in \(configuration.file): its items cannot be acted on"))
        }
        guard let type = session.registry.type(named: entry.type) else {
            throw ActionError(localized("\(id): unknown type \"\(entry.type)\""))
        }
        return (entry, type)
    }

    /// How `action` is done on `stored` (nil for a check-in: the provider named), or why it
    /// cannot be: not offered by the type, not for this kind of item, or no credential set.
    public func support(_ action: ItemAction, on stored: StoredItem?, provider: String? = nil) throws(ActionError) -> ActionSupport {
        let id = stored?.item.provider ?? provider ?? ""
        let (entry, type) = try providerType(id)
        let metadata = type.metadata
        guard let support = metadata.support(for: action) else { throw ActionError("\(id): \(metadata.whyAbsent(action))") }
        if let item = stored?.item, !support.kinds.contains(item.kind) {
            let kinds = support.kinds.map(\.rawValue).joined(separator: ", ")
            throw ActionError(localized("\(id): \(action.rawValue) applies to \(kinds) items, and this one is a \(item.kind.rawValue)"))
        }
        switch support.needs {
        case .cookie:
            let variable = entry.cookieEnv ?? "\(metadata.typeName.uppercased())_COOKIE"
            guard entry.cookieEnv != nil, let value = session.environment[variable], !value.isEmpty else {
                throw ActionError(
                    localized(
                        "\(id): \(action.rawValue) needs a signed-in \(metadata.displayName) session: put the browser's Cookie header in ")
                        + localized("$\(variable) and set \"cookie_env\": \"\(variable)\" on the entry"))
            }
        case .token:
            let variable = metadata.tokenVariable(for: entry) ?? "TOKEN"
            guard let value = session.environment[variable], !value.isEmpty else {
                throw ActionError(localized("\(id): \(action.rawValue) needs a \(metadata.displayName) token in $\(variable)"))
            }
            // The token's budget is the refresh's: a site that said "wait" is not asked.
            if let state = try? session.storage.providerStates()[id], state.waitReason == .rateLimit,
                let until = state.nextAllowedFetch, until > session.clock()
            {
                throw ActionError(
                    localized(
                        "\(id): \(metadata.displayName) rate-limited this token until \(ISOTimestamp.format(until)); nothing was sent"))
            }
        }
        return support
    }

    /// What to say before `action` on `stored` when it costs or cannot be undone; nil when
    /// it may be sent without asking.
    public func confirmation(_ action: ItemAction, on stored: StoredItem?, provider: String? = nil) -> String? {
        (try? support(action, on: stored, provider: provider))?.confirmation
    }

    /// The actions done on each of `refs` through aggr.
    public func states(of refs: [Int64]) throws -> [Int64: Set<ItemAction>] { try session.storage.actionStates(of: refs) }

    // MARK: Doing it

    /// Performs `order` on `stored`: the store's state first, then the site; the state is
    /// taken back when the site refuses.
    public func perform(_ order: Order, on stored: StoredItem) async throws -> Result {
        let support = try support(order.action, on: stored)
        if order.undo, !support.undoable {
            throw ActionError(localized("\(stored.item.provider): \(order.action.rawValue) cannot be taken back"))
        }
        if order.action == .reply, (order.text ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw ActionError(localized("the reply is empty: nothing was sent"))
        }
        let metric = Self.metric(of: order.action)
        let storage = session.storage
        let before = try storage.actionStates(of: [stored.ref])[stored.ref]?.contains(order.action) ?? false
        let marks = order.action != .reply && !order.dryRun
        if marks, before == !order.undo, order.action != .react {
            return Result(
                provider: stored.item.provider,
                message: localized("already \(order.undo ? "un" : "")\(order.action.doneState) through aggr"),
                alreadyDone: true, planned: [], stored: [], streak: nil)
        }
        if marks {
            try storage.setActionState(
                order.action, on: stored.ref, done: !order.undo, metric: metric, delta: order.undo ? -1 : 1, now: session.clock())
        }
        let request = ActionRequest(action: order.action, item: stored.item, text: order.text, reaction: order.reaction, undo: order.undo)
        let outcome: ActionOutcome
        let context: ActionContext
        do {
            (outcome, context) = try await run(request, provider: stored.item.provider, dryRun: order.dryRun)
        } catch {
            if marks {
                _ = try? storage.setActionState(
                    order.action, on: stored.ref, done: before, metric: metric, delta: order.undo ? 1 : -1, now: session.clock())
            }
            throw error
        }
        if order.action == .reply, !order.dryRun {
            try storage.setActionState(.reply, on: stored.ref, done: true, metric: nil, delta: 0, now: session.clock())
        }
        var made: [StoredItem] = []
        if !outcome.newItems.isEmpty, let first = outcome.newItems.first {
            let section = Section(provider: first.provider, key: first.section, title: "")
            try storage.ingest(
                outcome.newItems, section: section, now: session.clock(), keepSectionTitle: true, validators: [:], listed: false)
            made = try outcome.newItems.compactMap { try storage.item(provider: $0.provider, id: $0.id) }
        }
        return Result(
            provider: request.item?.provider ?? "", message: outcome.message, alreadyDone: outcome.alreadyDone,
            planned: Self.planned(context), stored: made, streak: outcome.streak)
    }

    /// Claims provider `id`'s daily reward.
    ///
    /// Once a site day unless `force`, remembered across restarts; "already claimed today"
    /// is a success.
    public func checkin(provider id: String, dryRun: Bool = false, force: Bool = false) async throws -> Result {
        let support = try support(.checkin, on: nil, provider: id)
        let zone = support.dayZone ?? TimeZone(secondsFromGMT: 0)!
        let today = Self.day(session.clock(), in: zone)
        if !force, !dryRun, let last = try session.storage.lastCheckin(provider: id), last.day == today {
            return Result(
                provider: id,
                message: localized("already claimed today (\(today))") + (last.streak.map { localized(", \($0) days in a row") } ?? ""),
                alreadyDone: true, planned: [], stored: [], streak: last.streak)
        }
        let (outcome, context) = try await run(ActionRequest(action: .checkin, item: nil), provider: id, dryRun: dryRun)
        if !dryRun {
            try session.storage.saveCheckin(CheckinRecord(day: today, streak: outcome.streak, at: session.clock()), provider: id)
        }
        return Result(
            provider: id, message: outcome.message, alreadyDone: outcome.alreadyDone, planned: Self.planned(context), stored: [],
            streak: outcome.streak)
    }

    /// The providers whose entries say `"checkin": true`.
    public func dailyCheckins() -> [String] {
        session.configuration.providers.filter { $0.enabled && $0.checkin }.map(\.id)
    }

    /// Runs `request` through provider `id` with its credentials; errors carry no secret.
    func run(_ request: ActionRequest, provider id: String, dryRun: Bool) async throws -> (ActionOutcome, ActionContext) {
        let (entry, type) = try providerType(id)
        let metadata = type.metadata
        let refresher = session.refresher()
        let tokenVariable = metadata.tokenVariable(for: entry) ?? ""
        let context = ActionContext(
            http: session.http, now: session.clock(), site: metadata.displayName,
            token: ProviderContext.token(named: tokenVariable, in: session.environment), tokenVariable: tokenVariable,
            webCookie: refresher.webCookie(of: entry, metadata: metadata), cookieVariable: entry.cookieEnv ?? "", dryRun: dryRun)
        do {
            let provider = try type.init(configuration: entry)
            return (try await provider.perform(request, context: context), context)
        } catch {
            let message = SecretRedactor.redact(text: "\(error)", secrets: refresher.secrets(of: entry, metadata: metadata))
            throw ActionError(message.hasPrefix("\(id):") ? message : "\(id): \(message)")
        }
    }

    /// The counter an action moves at once.
    static func metric(of action: ItemAction) -> String? {
        switch action {
        case .like: "likes"
        case .star: "stars"
        default: nil
        }
    }

    /// `date`'s day on the site's calendar, `yyyy-MM-dd`.
    static func day(_ date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    static func planned(_ context: ActionContext) -> [PlannedRequest] {
        context.plannedRequests.map { request in
            PlannedRequest(
                method: request.method, url: SecretRedactor.redact(url: request.url),
                headers: SecretRedactor.redact(headers: request.headers),
                body: request.body.map {
                    SecretRedactor.redact(
                        body: String(decoding: $0, as: UTF8.self),
                        contentType: request.headers.first { $0.0.lowercased() == "content-type" }?.1)
                })
        }
    }
}
