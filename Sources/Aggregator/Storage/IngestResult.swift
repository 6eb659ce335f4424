/// What one ingest changed.
public struct IngestResult: Sendable, Equatable {
    public var new = 0
    public var updated = 0
    public var unchanged = 0
    /// Items skipped because they were pruned or deleted before.
    public var tombstoned = 0

    public init(new: Int = 0, updated: Int = 0, unchanged: Int = 0, tombstoned: Int = 0) {
        self.new = new
        self.updated = updated
        self.unchanged = unchanged
        self.tombstoned = tombstoned
    }

    public static func + (lhs: IngestResult, rhs: IngestResult) -> IngestResult {
        IngestResult(
            new: lhs.new + rhs.new, updated: lhs.updated + rhs.updated,
            unchanged: lhs.unchanged + rhs.unchanged, tombstoned: lhs.tombstoned + rhs.tombstoned)
    }
}
