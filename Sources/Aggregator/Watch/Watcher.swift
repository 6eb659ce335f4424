import Foundation
import Logging

/// Keeps the timeline fresh on its own: refreshes each enabled provider when it is due and
/// tells the user about new items that match a notification rule.
///
/// Intervals, backoff and rate limits are the ``Refresher``'s, read from the stored provider
/// state, so a pass refreshes only what is due and the watch sleeps until the next provider
/// is; providers.json is checked with one `stat` every ``ConfigReloader/pollInterval``
/// while it sleeps: an edit that loads replaces the config, one that does not is
/// reported and the last good config keeps running. Cancelling the task running ``run(once:)``
/// stops it: sections that came back are stored, the rest are left for the next start.
public struct Watcher: Sendable {
    /// The library the watch refreshes; a reloaded providers.json replaces its config, so
    /// every front end sharing the session follows.
    public var session: LibrarySession
    /// providers.json, reloaded when it changes; nil never reloads.
    public var configPath: String?
    public var notifier: Notifier
    /// The longest sleep between passes when no provider is due (new items written by other
    /// processes are notified after at most this long).
    public var configCheckInterval: TimeInterval = 60
    /// How long deliveries under way may take once the watch stops.
    public var shutdownGrace: TimeInterval = 3
    /// Receives what the watch does.
    public var report: @Sendable (WatchEvent) -> Void
    /// Receives each refresh's progress.
    public var refreshEvents: @Sendable (RefreshEvent) -> Void

    public init(
        session: LibrarySession, configPath: String?, notifier: Notifier, report: @escaping @Sendable (WatchEvent) -> Void = { _ in },
        refreshEvents: @escaping @Sendable (RefreshEvent) -> Void = { _ in }
    ) {
        self.session = session
        self.configPath = configPath
        self.notifier = notifier
        self.report = report
        self.refreshEvents = refreshEvents
    }

    var store: any TimelineStorage { session.storage }
    var registry: ProviderRegistry { session.registry }

    /// Runs passes until cancelled, or one pass with `once`.
    ///
    /// One pass waits for its notifications to be delivered. Returns the last pass's refresh
    /// summary.
    @discardableResult
    public func run(once: Bool = false) async -> RefreshSummary {
        var configuration = session.configuration
        var reloader = configPath.map { ConfigReloader(path: $0, registry: registry, displayName: configuration.file) }
        let deliveries = DeliveryQueue()
        var lastSummary = RefreshSummary()
        var lastWait: (Date?, String?) = (nil, nil)
        // Providers a pass left due (skipped for a rate budget shared with another): not
        // before this, or the watch would spin.
        var held: [String: Date] = [:]
        // Check-ins that failed: not asked again before this.
        var checkinsHeld: [String: Date] = [:]
        while !Task.isCancelled {
            do {
                if let reloaded = try reloader?.reload() {
                    configuration = reloaded
                    session.configuration = reloaded
                    report(.configReloaded(configuration))
                }
            } catch {
                report(.configRejected(message: localized("\(error); keeping the last good config")))
            }
            // Read once a pass: the rules of every user, each over a store acting as them.
            let rules = ruleSets(configuration)
            registerNewRules(rules)
            if let summary = await refreshDue(configuration, held: &held) { lastSummary = summary }
            await checkinDue(configuration, held: &checkinsHeld, through: deliveries)
            if Task.isCancelled { break }
            notify(rules, configuration, through: deliveries)
            if once {
                await deliveries.drain()
                break
            }
            let (due, provider) = nextDue(configuration, held: held)
            if due != lastWait.0 || provider != lastWait.1 {
                lastWait = (due, provider)
                report(.waiting(until: due, provider: provider))
            }
            // Sleep until the next provider is due, looking at providers.json every couple of
            // seconds so an edit (a shorter interval, a new provider) applies at once.
            let wake = min(due ?? .distantFuture, Date().addingTimeInterval(configCheckInterval))
            repeat {
                let seconds = max(0.05, min(wake.timeIntervalSinceNow, ConfigReloader.pollInterval))
                do {
                    try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                } catch {
                    break
                }
            } while !Task.isCancelled && wake.timeIntervalSinceNow > 0 && reloader?.fileChanged != true
        }
        if !once { await deliveries.finish(within: shutdownGrace) }
        return lastSummary
    }

    /// Claims the daily reward of each entry with `"checkin": true` not claimed today (the
    /// store remembers the day, so a restart does not claim twice); one that fails is asked
    /// again after an hour.
    func checkinDue(_ configuration: Configuration, held: inout [String: Date], through deliveries: DeliveryQueue) async {
        let actions = ItemActions(session: session)
        for id in actions.dailyCheckins() where (held[id] ?? .distantPast) <= Date() {
            if let last = try? store.lastCheckin(provider: id),
                let zone = (try? actions.support(.checkin, on: nil, provider: id))?.dayZone,
                last.day == ItemActions.day(session.clock(), in: zone)
            {
                continue
            }
            do {
                let result = try await actions.checkin(provider: id)
                report(.checkedIn(provider: id, message: result.message, streak: result.streak))
                tellCheckin(result, configuration: configuration, through: deliveries)
            } catch {
                held[id] = Date().addingTimeInterval(3_600)
                report(.problem(localized("check-in \(id): \(error); trying again in an hour")))
            }
        }
    }

    /// Tells the rules with `"checkins": true` about a check-in, through their channels, as
    /// a digest of one notification item (its title the outcome, its link the site).
    func tellCheckin(_ result: ItemActions.Result, configuration: Configuration, through deliveries: DeliveryQueue) {
        let rules = configuration.notify.filter(\.checkins)
        guard !rules.isEmpty else { return }
        let now = session.clock()
        let streak = result.streak.map { " (" + localized("\($0) day in a row", plural: "\($0) days in a row", count: $0) + ")" } ?? ""
        let site = session.siteURL(of: result.provider) ?? ""
        let notice = Item(
            provider: result.provider, section: "checkin", id: "checkin/\(ItemActions.day(now, in: TimeZone(secondsFromGMT: 0)!))",
            kind: .notification, title: localized("\(result.provider) daily check-in: \(result.message)\(streak)"), url: site,
            published: now)
        let digest = NotificationDigest(rule: "", items: [StoredItem(ref: 0, item: notice, firstSeen: now)])
        for rule in rules {
            var told = digest
            told.rule = rule.name
            let notifier = notifier
            let report = report
            deliveries.start(told) { digest in
                for delivery in await notifier.send(digest, for: rule, event: "checkin") { report(.delivered(delivery)) }
            }
        }
    }

    /// The enabled providers whose next fetch is due at `now`.
    func dueProviders(_ configuration: Configuration, now: Date, held: [String: Date]) -> [String] {
        let states = (try? store.providerStates()) ?? [:]
        return configuration.providers.filter { entry in
            let next = states[entry.id]?.nextFetch(interval: registry.interval(of: entry))
            return entry.enabled && max(next ?? .distantPast, held[entry.id] ?? .distantPast) <= now
        }.map(\.id)
    }

    /// When the next enabled provider is due, and which.
    func nextDue(_ configuration: Configuration, held: [String: Date]) -> (Date?, String?) {
        let states: [String: ProviderState]
        do {
            states = try store.providerStates()
        } catch {
            report(.problem(localized("reading provider state: \(error)")))
            return (Date().addingTimeInterval(configCheckInterval), nil)
        }
        var best: (Date, String)?
        for entry in configuration.providers where entry.enabled {
            let next = states[entry.id]?.nextFetch(interval: registry.interval(of: entry))
            let due = max(next ?? Date(), held[entry.id] ?? .distantPast)
            if best == nil || due < best!.0 { best = (due, entry.id) }
        }
        return (best?.0, best?.1)
    }

    /// Refreshes what is due; nil when nothing was.
    ///
    /// A provider the pass left due is held back for ``configCheckInterval``.
    func refreshDue(_ configuration: Configuration, held: inout [String: Date]) async -> RefreshSummary? {
        let now = Date()
        held = held.filter { $0.value > now }
        let due = dueProviders(configuration, now: now, held: held)
        guard !due.isEmpty else { return nil }
        report(.passStarted(providers: due))
        do {
            let summary = try await session.refresh(
                only: due, events: refreshEvents, pruneFailed: { report(.problem(localized("pruning: \($0)"))) })
            report(.passFinished(summary))
            for id in dueProviders(configuration, now: now, held: held) {
                held[id] = now.addingTimeInterval(configCheckInterval)
            }
            // Another worker's claim: due again when it ends (a worker killed mid-refresh
            // leaves its claims to expire), not a whole check interval later.
            for (id, until) in summary.claimedElsewhere {
                held[id] = min(held[id] ?? .distantFuture, max(until, now).addingTimeInterval(0.5))
            }
            return summary
        } catch {
            report(.problem(localized("refresh: \(error)")))
            return nil
        }
    }

    /// Starts each rule seen for the first time at the newest stored item: what is stored
    /// already is backlog and never fires it; what this pass stores does.
    func registerNewRules(_ rules: [NotificationRuleSet]) {
        do {
            for set in rules {
                let marks = try set.store.notificationMarks()
                let newRules = set.rules.filter { marks[$0.mark] == nil }
                guard !newRules.isEmpty else { continue }
                let latest = try set.store.latestRef()
                for rule in newRules { try set.store.setNotificationMark(rule: rule.mark, ref: latest) }
            }
        } catch {
            report(.problem(localized("notifications: \(error)")))
        }
    }

    /// Finds, for each rule, the items stored since it last looked, moves its mark past them
    /// (before sending: an item fires a rule at most once, even if aggr stops mid-delivery),
    /// and starts sending one digest per rule that matched.
    func notify(_ rules: [NotificationRuleSet], _ configuration: Configuration, through deliveries: DeliveryQueue) {
        for set in rules {
            do {
                for (rule, digest) in try Self.collectDigests(set, configuration: configuration, now: Date()) {
                    report(.matched(rule: rule.name, count: digest.total))
                    let notifier = notifier
                    let report = report
                    deliveries.start(digest) { digest in
                        for delivery in await notifier.send(digest, for: rule) { report(.delivered(delivery)) }
                    }
                }
            } catch {
                report(.problem(localized("notifications: \(error)")))
            }
        }
    }

    /// The rules a pass evaluates: the config's over the watch's own state, then each user's
    /// own over theirs (a rule that no longer reads is reported and left out).
    func ruleSets(_ configuration: Configuration) -> [NotificationRuleSet] {
        var sets: [NotificationRuleSet] = []
        if !configuration.notify.isEmpty {
            sets.append(NotificationRuleSet(store: store, rules: configuration.notify.map { ($0, $0.name) }))
        }
        guard let directory = session.directory else { return sets }
        do {
            let stored = try directory.everyonesRules()
            for user in Set(stored.map(\.user)).sorted() {
                var rules: [(rule: NotificationRule, mark: String)] = []
                for entry in stored where entry.user == user {
                    do {
                        var rule = try LibrarySession.ownRule(entry.name, of: user, entry: entry.entry)
                        // Deliveries and digests name whose rule it is.
                        rule.name = "\(user)/\(entry.name)"
                        rules.append((rule, LibrarySession.ownRuleMarkPrefix + entry.name))
                    } catch {
                        report(.problem(localized("notifications: \(error)")))
                    }
                }
                sets.append(NotificationRuleSet(store: try directory.storage(actingAs: user), rules: rules))
            }
        } catch {
            report(.problem(localized("notifications: \(error)")))
        }
        return sets
    }

    /// The digests due now for `set`, the marks moved past them.
    ///
    /// A rule seen for the first time starts at the newest stored item. A mark another watch
    /// moved meanwhile is left to it: each item fires a rule once however many watches share
    /// the database.
    static func collectDigests(
        _ set: NotificationRuleSet, configuration: Configuration, now: Date
    ) throws -> [(NotificationRule, NotificationDigest)] {
        let store = set.store
        let latest = try store.latestRef()
        let marks = try store.notificationMarks()
        var digests: [(NotificationRule, NotificationDigest)] = []
        for (rule, markName) in set.rules {
            guard let mark = marks[markName] else {
                try store.setNotificationMark(rule: markName, ref: latest, now: now)
                continue
            }
            guard latest > mark else { continue }
            var query = TimelineQuery()
            query.filters = [rule.filter]
            query.hiding = HidingRules(configuration)
            query.storedAfter = mark
            query.storedThrough = latest
            query.limit = 100_000
            query.now = now
            let items = try store.timeline(query).items
            // Another watch on the same database that saw the same mark sends this digest.
            guard try store.advanceNotificationMark(rule: markName, from: mark, to: latest) else { continue }
            if !items.isEmpty {
                digests.append(
                    (rule, NotificationDigest(rule: rule.name, items: Array(items.prefix(Notifier.maximumItems)), total: items.count)))
            }
        }
        return digests
    }
}

/// The notification rules one user's state is matched against, each with the name its
/// mark is kept under.
struct NotificationRuleSet {
    /// The store acting as the user whose rules these are (their read state, their marks).
    var store: any TimelineStorage
    var rules: [(rule: NotificationRule, mark: String)]
}
