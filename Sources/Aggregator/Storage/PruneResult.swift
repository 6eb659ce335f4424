/// What a prune removed.
public struct PruneResult: Sendable, Equatable {
    public var byAge = 0
    public var byCount = 0
    public var byRequest = 0
    /// Tombstones dropped because no refresh met their item for ``Store/tombstoneLifetime``.
    public var forgottenTombstones = 0

    /// Items removed (tombstones are not items).
    public var total: Int { byAge + byCount + byRequest }

    public init(byAge: Int = 0, byCount: Int = 0, byRequest: Int = 0, forgottenTombstones: Int = 0) {
        self.byAge = byAge
        self.byCount = byCount
        self.byRequest = byRequest
        self.forgottenTombstones = forgottenTombstones
    }
}
