import Foundation

/// Progress of a refresh, reported as it happens.
public enum RefreshEvent: Sendable {
    /// The provider was not fetched; `reason` says why and until when.
    case skipped(provider: String, reason: String)
    case started(provider: String, sections: [String])
    case sectionFinished(provider: String, section: String, outcome: SectionOutcome)
    case finished(ProviderOutcome)
}

/// How one section fetch ended.
public enum SectionOutcome: Sendable, Equatable {
    case stored(IngestResult)
    /// Upstream answered 304, or the same body as last time: nothing was parsed.
    case unchanged
    case failed(String)
}

/// How one provider's refresh ended.
public struct ProviderOutcome: Sendable {
    public var provider: String
    public var result = IngestResult()
    public var unchangedSections = 0
    /// Sections whose items were stored (an empty list counts).
    public var storedSections = 0
    /// `(section, message)` for each failed section.
    public var failures: [(section: String, message: String)] = []
    public var elapsed: TimeInterval = 0
    /// The refresh was cancelled before every section finished; its state was not saved.
    public var cancelled = false
    /// When the provider may be fetched again, and why.
    public var nextAllowedFetch: Date?
    public var waitReason: WaitReason?

    public init(provider: String) {
        self.provider = provider
    }

    public var failed: Bool { !failures.isEmpty }

    /// Whether any section came back, stored or unchanged.
    public var anySectionSucceeded: Bool { storedSections + unchangedSections > 0 }
}

/// The whole refresh, for the final summary line and the exit status.
public struct RefreshSummary: Sendable {
    public var outcomes: [ProviderOutcome] = []
    public var skipped: [(provider: String, reason: String, wait: WaitReason)] = []
    /// Providers another process was refreshing (a shared database), and until when its claim lasts.
    public var claimedElsewhere: [String: Date] = [:]
    public var elapsed: TimeInterval = 0

    public init() {}

    public var totals: IngestResult { outcomes.reduce(IngestResult()) { $0 + $1.result } }
    public var failedProviders: [String] { outcomes.filter(\.failed).map(\.provider) }
    public var succeededProviders: [String] { outcomes.filter { !$0.failed }.map(\.provider) }

    /// 0 when every provider that ran succeeded; 2 when something failed while some section
    /// (of any provider) came back; 1 when nothing came back or nothing could run.
    public var exitStatus: Int32 {
        if !failedProviders.isEmpty { return outcomes.contains(where: \.anySectionSucceeded) ? 2 : 1 }
        // Nothing ran because every provider is backing off or rate limited: none could run.
        let blocked = !skipped.isEmpty && skipped.allSatisfy { $0.wait != .interval }
        return outcomes.isEmpty && blocked ? 1 : 0
    }

    /// One line: `3 providers in 1.2 s: 40 new, 5 updated, 100 unchanged, 1 failed (gitee)`;
    /// sections that came back not modified (a 304, or the same body) are counted apart, since
    /// no item of theirs was looked at: `…, 0 unchanged, 2 sections not modified, 0 failed`.
    public var line: String {
        let totals = totals
        let failed = failedProviders
        let notModified = outcomes.reduce(0) { $0 + $1.unchangedSections }
        let seconds = String(format: "%.1f", elapsed)
        let count = outcomes.count
        var text = localized(
            "\(count) provider refreshed in \(seconds) s: ", plural: "\(count) providers refreshed in \(seconds) s: ", count: count)
        var parts = [localized("\(totals.new) new, \(totals.updated) updated, \(totals.unchanged) unchanged")]
        if notModified > 0 {
            parts.append(
                localized("\(notModified) section not modified", plural: "\(notModified) sections not modified", count: notModified))
        }
        parts.append(failed.isEmpty ? localized("0 failed") : localized("\(failed.count) failed (\(failed.joined(separator: ", ")))"))
        if !skipped.isEmpty { parts.append(localized("\(skipped.count) skipped")) }
        text += parts.joined(separator: localized(", ", context: "list separator"))
        return text
    }
}
