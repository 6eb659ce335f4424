import Foundation

/// One of the writes a refresh makes, handed to a writer that stores several in one
/// transaction (``TimelineStorage/write(_:)``).
public enum QueuedWrite: Sendable {
    /// One fetch of a section, as ``TimelineStorage/ingest(_:section:now:validators:listed:)``.
    case ingest(items: PreparedItems, section: Section, now: Date, validators: [String: HTTPValidators])
    /// A provider's state after its refresh, as ``TimelineStorage/saveProviderState(_:)``.
    case providerState(ProviderState)
}

/// Items made ready for storage by the task that fetched them, not by the writer every
/// task waits for: credentials redacted and controls removed (``Item/preparedForStorage()``),
/// columns encoded, the full-text index's text cut.
public struct PreparedItems: Sendable {
    package let records: [ItemRecord]

    public init(_ items: [Item]) {
        records = items.map { ItemRecord($0.preparedForStorage(), indexed: true) }
    }

    /// The items, prepared.
    public var items: [Item] { records.map(\.item) }
}

extension TimelineStorage {
    /// Stores `writes`, each on its own: what a backend without grouped writes does.
    ///
    /// A result per write, in order: the ingest's result, or an empty one for a state.
    public func write(_ writes: [QueuedWrite]) -> [Result<IngestResult, any Error>] {
        writes.map { write in
            Result {
                switch write {
                case .ingest(let items, let section, let now, let validators):
                    return try ingest(items.items, section: section, now: now, validators: validators)
                case .providerState(let state):
                    try saveProviderState(state)
                    return IngestResult()
                }
            }
        }
    }
}
