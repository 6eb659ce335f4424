/// How many stored items of one provider a filter matches.
public struct FilterMatchCount: Sendable, Equatable {
    public var provider: String
    public var matching: Int
    public var total: Int

    public init(provider: String, matching: Int, total: Int) {
        self.provider = provider
        self.matching = matching
        self.total = total
    }
}
