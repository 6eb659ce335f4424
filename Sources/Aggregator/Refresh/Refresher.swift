import Foundation
import Logging

/// Fetches every enabled provider's sections concurrently and stores what they return.
///
/// One failing provider or section never stops the others or loses their items: each
/// provider×section is its own task and its own transaction. Provider state (last fetch,
/// last error, failures in a row, next allowed fetch and why) is saved after each provider.
public struct Refresher: Sendable {
    public var configuration: Configuration
    public var registry: ProviderRegistry
    public var store: any TimelineStorage
    public var http: any HTTPClient
    public var environment: [String: String]
    public var logger: Logger
    public var backoff = BackoffPolicy()
    /// The refresh's notion of now; tests pin it.
    public var now: Date
    /// How many providers refresh at once (each runs its sections together).
    static let providersInFlight = 512
    /// On a database several processes refresh (``TimelineStorage/sharesRefresh``): how
    /// many providers are claimed at a time, and in flight at most, so the work spreads
    /// over the workers instead of going to whichever claims first.
    static let sharedClaimChunk = 16
    static let sharedInFlight = 32

    /// How long a claim lasts before another worker may take the provider over.
    ///
    /// Longer than a provider's refresh takes; `AGGR_REFRESH_LEASE` (seconds) sets it.
    var claimLease: TimeInterval {
        environment["AGGR_REFRESH_LEASE"].flatMap(TimeInterval.init).map { max(1, $0) } ?? 600
    }

    public init(
        configuration: Configuration, registry: ProviderRegistry, store: any TimelineStorage, http: any HTTPClient,
        environment: [String: String], logger: Logger = Logger(label: "aggr.refresh"), now: Date = Date()
    ) {
        self.configuration = configuration
        self.registry = registry
        self.store = store
        self.http = http
        self.environment = environment
        self.logger = logger
        self.now = now
    }

    /// Refreshes `only` (all enabled providers when empty); `force` ignores intervals and
    /// backoff but never an upstream rate limit.
    public func refresh(
        only: [String] = [], force: Bool = false, events: @escaping @Sendable (RefreshEvent) -> Void = { _ in }
    )
        async throws -> RefreshSummary
    {
        let started = Date()
        var summary = RefreshSummary()
        let states = try store.providerStates()
        var runnable: [(any Provider, ProviderConfiguration, SharedRateBudget)] = []
        var budgets: [String: SharedRateBudget] = [:]
        var budgetKeys: [String: String] = [:]
        // Per budget, the first provider sharing it that was told to wait, and until when:
        // looked up once here rather than by a scan of every provider for each provider.
        var waitingBudgets: [String: (provider: String, until: Date)] = [:]
        for entry in configuration.providers {
            let key = budgetKey(entry)
            budgetKeys[entry.id] = key
            if waitingBudgets[key] == nil, let state = states[entry.id], state.waitReason == .rateLimit,
                let until = state.nextAllowedFetch, until > now
            {
                waitingBudgets[key] = (entry.id, until)
            }
        }
        let wanted = Set(only)
        for entry in configuration.providers where only.isEmpty ? entry.enabled : wanted.contains(entry.id) {
            if let reason = waitReason(states[entry.id], interval: registry.interval(of: entry), force: force) {
                summary.skipped.append((entry.id, reason, states[entry.id]?.waitReason ?? .interval))
                events(.skipped(provider: entry.id, reason: reason))
                continue
            }
            let key = budgetKeys[entry.id] ?? entry.id
            // A provider sharing this budget was told to wait: so must this one.
            if let (sharer, until) = waitingBudgets[key], sharer != entry.id {
                let reason = localized("rate limited until \(ISOTimestamp.format(until)) (budget shared with \(sharer))")
                summary.skipped.append((entry.id, reason, .rateLimit))
                events(.skipped(provider: entry.id, reason: reason))
                continue
            }
            guard let type = registry.type(named: entry.type) else { continue }
            let budget = budgets[key] ?? SharedRateBudget()
            budgets[key] = budget
            runnable.append((try type.init(configuration: entry), entry, budget))
        }
        let writes = WriteQueue(store: store)
        defer { writes.finish() }
        let shared = store.sharesRefresh
        // Validators read once for every provider about to run. Not on a database several
        // workers refresh: another may fetch a provider between this read and its claim.
        let memory: any FetchMemory =
            shared
            ? store
            : (try? store.validators(of: Set(runnable.map(\.1.id))))?.map { ValidatorSnapshot(store: store, validators: $0) } ?? store
        let claims = ClaimedRefresh(refresher: self, force: force, budgetKeys: budgetKeys, events: events)
        summary.outcomes = await withTaskGroup(of: ProviderOutcome.self) { group in
            // At most `Self.providersInFlight` providers at once: the HTTP client runs fewer
            // transfers than that anyway, and ten thousand providers started together would
            // each hold their task and fetch state while waiting for a turn. On a shared
            // database each is claimed first, a few at a time.
            var pending = runnable[...]
            var ready: [(any Provider, ProviderConfiguration, SharedRateBudget, ProviderState?)] = []
            func startNext() {
                if shared, ready.isEmpty {
                    ready = claims.claim(from: &pending, states: states, summary: &summary)
                }
                let next: (any Provider, ProviderConfiguration, SharedRateBudget, ProviderState?)
                if shared {
                    guard !ready.isEmpty else { return }
                    next = ready.removeFirst()
                } else {
                    guard let (provider, entry, budget) = pending.popFirst() else { return }
                    next = (provider, entry, budget, states[entry.id])
                }
                let (provider, entry, budget, previous) = next
                group.addTask {
                    await refresh(
                        provider, entry: entry, previous: previous, budget: budget, memory: memory, writes: writes, events: events)
                }
            }
            for _ in 0..<(shared ? Self.sharedInFlight : Self.providersInFlight) { startNext() }
            var outcomes: [ProviderOutcome] = []
            for await outcome in group {
                outcomes.append(outcome)
                // Its state is stored: another worker now sees it fetched.
                if shared { claims.release(outcome.provider) }
                startNext()
            }
            var position: [String: Int] = [:]
            for (index, entry) in configuration.providers.enumerated() where position[entry.id] == nil { position[entry.id] = index }
            return outcomes.sorted { (position[$0.provider] ?? 0) < (position[$1.provider] ?? 0) }
        }
        summary.elapsed = Date().timeIntervalSince(started)
        return summary
    }

    /// Why a provider must wait, or nil when it may run now.
    func waitReason(_ state: ProviderState?, interval: TimeSpan?, force: Bool) -> String? {
        guard let state, let next = state.nextFetch(interval: interval), next > now else { return nil }
        let when = localized("until \(ISOTimestamp.format(next)) (in \(TimeSpan(seconds: max(1, Int(next.timeIntervalSince(now))))))")
        switch state.waitReason ?? .interval {
        case .rateLimit: return localized("rate limited \(when)")
        case .backoff where !force:
            let failures = state.consecutiveFailures
            return localized(
                "backing off after \(failures) failure in a row, \(when); --force tries now",
                plural: "backing off after \(failures) failures in a row, \(when); --force tries now", count: failures)
        case .interval where !force: return localized("fetched recently; next \(when); --force fetches now")
        default: return nil
        }
    }

    /// The rate-limit budget `entry` draws on: its type, API base (or, without one, the
    /// origin it fetches from) and token.
    ///
    /// Feeds and pages have no API: a host that answers `429` with `Retry-After` holds back
    /// the providers on that host, in this process and (through the stored states) in every
    /// worker, and no other.
    func budgetKey(_ entry: ProviderConfiguration) -> String {
        let metadata = registry.type(named: entry.type)?.metadata
        let token = ProviderContext.token(named: metadata?.tokenVariable(for: entry) ?? entry.tokenEnv, in: environment)
        let base = entry.apiURL ?? metadata?.defaultAPIURL ?? Self.origin(of: entry) ?? "provider \(entry.id)"
        return SharedRateBudget.key(type: entry.type, apiURL: base, token: token)
    }

    /// The origin (scheme, host and port) a provider without an API base fetches from: its
    /// `url` option, else its first section naming a URL, else its web URL.
    static func origin(of entry: ProviderConfiguration) -> String? {
        let candidates = [entry.stringOption("url")] + entry.sections.map(\.argument) + [entry.webURL]
        return candidates.lazy.compactMap { $0 }.first(where: WebURL.isHTTP).map(SecretRedactor.origin(of:))
    }

    func refresh(
        _ provider: any Provider, entry: ProviderConfiguration, previous: ProviderState?, budget: SharedRateBudget,
        memory: any FetchMemory, writes: WriteQueue, events: @escaping @Sendable (RefreshEvent) -> Void
    ) async -> ProviderOutcome {
        let started = Date()
        events(.started(provider: entry.id, sections: entry.sections.map(\.key)))
        let metadata = type(of: provider).metadata
        let secrets = secrets(of: entry, metadata: metadata)
        let results = await withTaskGroup(of: (String, SectionOutcome, RateLimitSignal).self) { group in
            for section in entry.sections {
                group.addTask {
                    let session = FetchSession(memory: memory, provider: entry.id, budget: budget)
                    let context = context(for: entry, metadata: metadata, session: session)
                    let outcome: SectionOutcome
                    do {
                        let fetched = try await Self.fetch(section, of: provider, entry: entry, context: context)
                        if var items = fetched.items {
                            if let limit = entry.limit { items = Array(items.prefix(limit)) }
                            outcome = .stored(
                                try await writes.store(
                                    .ingest(
                                        items: PreparedItems(items), section: fetched.section, now: now,
                                        validators: session.stagedValidators)))
                            if let rule = entry.fullText { await readFullText(of: items, entry: entry, rule: rule) }
                        } else {
                            outcome = .unchanged
                        }
                    } catch let error as RateLimitedError {
                        var signal = session.rateLimit
                        signal.retryAfter = max(signal.retryAfter ?? error.until, error.until)
                        let message = SecretRedactor.redact(text: "\(error)", secrets: secrets)
                        events(.sectionFinished(provider: entry.id, section: section.key, outcome: .failed(message)))
                        return (section.key, .failed(message), signal)
                    } catch {
                        outcome = .failed(SecretRedactor.redact(text: Self.describe(error), secrets: secrets))
                    }
                    events(.sectionFinished(provider: entry.id, section: section.key, outcome: outcome))
                    return (section.key, outcome, session.rateLimit)
                }
            }
            var collected: [(String, SectionOutcome, RateLimitSignal)] = []
            for await result in group { collected.append(result) }
            return collected
        }
        var outcome = ProviderOutcome(provider: entry.id)
        var signals: [RateLimitSignal] = []
        for (section, sectionOutcome, signal) in results {
            signals.append(signal)
            switch sectionOutcome {
            case .stored(let result):
                outcome.result = outcome.result + result
                outcome.storedSections += 1
            case .unchanged: outcome.unchangedSections += 1
            case .failed(let message): outcome.failures.append((section, message))
            }
        }
        let order = entry.sections.map(\.key)
        outcome.failures.sort { (order.firstIndex(of: $0.section) ?? 0) < (order.firstIndex(of: $1.section) ?? 0) }
        if Task.isCancelled {
            // Stopped from outside (aggr watch shutting down): what came back is stored; the
            // provider's state is left as it was, so it is due again at the next start
            // instead of backing off for a failure it did not have.
            outcome.cancelled = true
            outcome.elapsed = Date().timeIntervalSince(started)
            events(.finished(outcome))
            return outcome
        }
        var state = previous ?? ProviderState(provider: entry.id)
        state.lastAttempt = now
        if outcome.failed {
            state.consecutiveFailures += 1
            state.lastError = outcome.failures.map { "\($0.section): \($0.message)" }.joined(separator: "; ")
            state.nextAllowedFetch = now.addingTimeInterval(
                backoff.delay(afterFailures: state.consecutiveFailures, jitter: Double.random(in: 0...1)))
            state.waitReason = .backoff
        } else {
            state.consecutiveFailures = 0
            state.lastError = nil
            state.lastSuccess = now
            let interval = entry.interval ?? metadata.defaultInterval
            state.nextAllowedFetch = now.addingTimeInterval(Double(interval.seconds))
            state.waitReason = .interval
        }
        for signal in signals {
            if let until = signal.blockedUntil ?? signal.pollAfter, until > (state.nextAllowedFetch ?? now) {
                state.nextAllowedFetch = until
                state.waitReason = .rateLimit
            }
        }
        do {
            _ = try await writes.store(.providerState(state))
        } catch {
            outcome.failures.append(("state", "\(error)"))
        }
        outcome.nextAllowedFetch = state.nextAllowedFetch
        outcome.waitReason = state.waitReason
        outcome.elapsed = Date().timeIntervalSince(started)
        events(.finished(outcome))
        return outcome
    }

    /// The context one fetch of `entry` runs in: its session, signed-in cookie and token variable.
    func context(for entry: ProviderConfiguration, metadata: ProviderMetadata, session: FetchSession) -> ProviderContext {
        var context = ProviderContext(http: http, now: now, logger: logger, environment: environment, session: session)
        context.webCookie = webCookie(of: entry, metadata: metadata)
        if ProviderContext.token(named: metadata.tokenVariable(for: entry), in: environment) != nil {
            context.tokenVariable = metadata.tokenVariable(for: entry)
        }
        return context
    }

    /// `entry`'s signed-in session cookie, when `cookie_env` names one.
    func webCookie(of entry: ProviderConfiguration, metadata: ProviderMetadata) -> WebCookie? {
        entry.cookieEnv.flatMap { variable in
            WebCookie(
                value: environment[variable], variable: variable, webRoot: metadata.webURL(for: entry),
                webRootConfigured: entry.webURL != nil)
        }
    }

    /// The values redacted from `entry`'s errors: its token, its cookie and each long cookie value.
    func secrets(of entry: ProviderConfiguration, metadata: ProviderMetadata) -> [String] {
        let webCookie = webCookie(of: entry, metadata: metadata)
        return [ProviderContext.token(named: metadata.tokenVariable(for: entry), in: environment), webCookie?.value].compactMap { $0 }
            // Each cookie's value on its own too; short ones ("zhcn") are not secrets worth a REDACTED.
            + (webCookie?.value.split(separator: ";").compactMap { $0.split(separator: "=", maxSplits: 1).last.map(String.init) }
                .filter { $0.count >= 12 } ?? [])
    }

    /// Fetches `section` of `provider`, stamping the entry's id and the section key on a
    /// ``ProviderError`` that leaves it.
    static func fetch(
        _ section: SectionSpec, of provider: any Provider, entry: ProviderConfiguration, context: ProviderContext
    ) async throws -> SectionFetch {
        do {
            return try await provider.fetch(section, context: context)
        } catch let error as ProviderError {
            throw error.stamped(provider: entry.id, section: section.key)
        }
    }

    /// A one-line description of any fetch error.
    static func describe(_ error: Error) -> String {
        switch error {
        case is CancellationError: localized("stopped before it finished (aggr was stopping)")
        case let error as CustomStringConvertible: TerminalText.sanitize(error.description)
        default: TerminalText.sanitize(String(describing: error))
        }
    }
}

extension ProviderContext {
    /// The non-empty value of environment variable `name`.
    static func token(named name: String?, in environment: [String: String]) -> String? {
        guard let name, let value = environment[name], !value.isEmpty else { return nil }
        return value
    }
}
