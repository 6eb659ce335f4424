import Foundation

/// One of the writes a refresh makes, handed to a writer that stores several in one
/// transaction (``TimelineStorage/write(_:)``).
public enum QueuedWrite: Sendable {
    /// One fetch of a section, as ``TimelineStorage/ingest(_:section:now:validators:listed:)``.
    case ingest(items: [Item], section: Section, now: Date, validators: [String: HTTPValidators])
    /// A provider's state after its refresh, as ``TimelineStorage/saveProviderState(_:)``.
    case providerState(ProviderState)
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
                    return try ingest(items, section: section, now: now, validators: validators)
                case .providerState(let state):
                    try saveProviderState(state)
                    return IngestResult()
                }
            }
        }
    }
}
