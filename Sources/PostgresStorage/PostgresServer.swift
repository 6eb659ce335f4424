import Aggregator

/// Opens `postgres://` and `postgresql://` addresses as ``PostgresStore``s: what a front end
/// hands the library so `--db` and `AGGR_DB` reach PostgreSQL.
public struct PostgresServer: StorageServer {
    /// The user stores are opened as (`--user`); nil for the default (``PostgresSchema``).
    public var user: String?

    public init(user: String? = nil) {
        self.user = user
    }

    public var schemes: [String] { ["postgres", "postgresql"] }

    public func open(_ address: String, environment: [String: String], readingOnly: Bool) throws -> any TimelineStorage {
        try PostgresStore(url: address, environment: environment, user: user)
    }
}

extension PostgresStore: TimelineStorage {
    public var location: String { address.display }
}
