import Foundation

/// One fact a store keeps, as a whole-database copy moves it from one backend to another
/// (``TimelineStorage/export(_:)`` and ``TimelineStorage/importRecords(_:)``).
///
/// Items keep their numbers, so reader apps and `provider:id`-less references go on working
/// after `aggr migrate`; read, saved, labels and notification marks are those of the user
/// the store was opened as (SQLite has one).
public enum StoredRecord: Sendable, Equatable {
    case section(provider: String, key: String, title: String)
    /// An item with its number, first sighting, read and saved state (its section title aside).
    case item(StoredItem)
    case label(ref: Int64, label: String)
    case action(ref: Int64, action: ItemAction, doneAt: Date)
    case article(ref: Int64, article: Article, fetchedAt: Date)
    case tombstone(provider: String, id: String, removedAt: Date, lastSeen: Date?)
    case providerState(ProviderState)
    case validators(provider: String, url: String, validators: HTTPValidators, storedAt: Date)
    case notificationMark(rule: String, ref: Int64, createdAt: Date)
    case siteIcon(SiteIcon)
    case secret(purpose: String, value: String, createdAt: Date)
    case checkin(provider: String, record: CheckinRecord)
    /// The highest item number ever given (removed ones included): numbers go on past it.
    case refFloor(Int64)
}

/// What a copy moved, by kind of record.
public struct StorageCopyCount: Sendable, Equatable {
    public var items = 0
    public var sections = 0
    /// Everything else (state, labels, tombstones, validators, icons, secrets).
    public var other = 0

    public init(items: Int = 0, sections: Int = 0, other: Int = 0) {
        self.items = items
        self.sections = sections
        self.other = other
    }

    /// Counts `records` in.
    public mutating func add(_ records: [StoredRecord]) {
        for record in records {
            switch record {
            case .item: items += 1
            case .section: sections += 1
            default: other += 1
            }
        }
    }
}

/// An export's records gathered into batches of a few thousand for its consumer.
package struct RecordBatches {
    /// How many records a copy hands over at once.
    package static let size = 2_000
    private var pending: [StoredRecord] = []

    package init() {}

    /// Adds `record`, handing a full batch to `consumer`.
    package mutating func add(_ record: StoredRecord, to consumer: ([StoredRecord]) throws -> Void) throws {
        pending.append(record)
        if pending.count >= Self.size { try flush(to: consumer) }
    }

    /// Hands what is gathered to `consumer`.
    package mutating func flush(to consumer: ([StoredRecord]) throws -> Void) throws {
        guard !pending.isEmpty else { return }
        try consumer(pending)
        pending.removeAll(keepingCapacity: true)
    }
}
