/// Stored item counts for one provider.
public struct ProviderItemCount: Sendable, Equatable {
    public var total: Int
    public var unread: Int

    public init(total: Int, unread: Int) {
        self.total = total
        self.unread = unread
    }
}
