import Aggregator
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO

/// The PostgreSQL timeline: the same items, sections, state and index as the SQLite
/// ``Store``, on a server several aggr processes (workers, web front ends) on several
/// machines share.
///
/// Providers, sections and items are shared; read and saved state and labels belong to the
/// user the store was opened as (``userName``). Each store holds one connection and runs
/// one statement or transaction on it at a time; calls block their thread (never an event
/// loop's) as the SQLite store's do.
public final class PostgresStore: Sendable {
    /// The connection, shared with the stores acting for other users (``acting(as:)``).
    let link: PostgresLink
    /// The user whose read, saved and label state this store reads and writes.
    public let userName: String
    /// That user's number, written into statements as a literal (it is ours, never input).
    let userID: Int64
    public let isReadOnly = false

    var address: PostgresAddress { link.address }

    /// Connects to `url`, brings its schema up to date and opens it as `user`: named, or the
    /// only user, or one named `USER` (created when the database has no user yet).
    public convenience init(url: String, environment: [String: String], user: String? = nil) throws {
        try self.init(address: PostgresAddress(url, environment: environment), user: user, environment: environment)
    }

    init(address: PostgresAddress, user: String?, environment: [String: String]) throws {
        link = try PostgresLink(address: address)
        (userID, userName) = try link.run { session in
            try PostgresSchema.migrate(session)
            return try PostgresSchema.user(named: user, environment: environment, in: session)
        }
    }

    private init(link: PostgresLink, userID: Int64, userName: String) {
        self.link = link
        self.userID = userID
        self.userName = userName
    }

    /// The same database, on the same connection, as user `name` (their read and saved
    /// state): what `aggr serve` answers a signed-in user with.
    public func acting(as name: String) throws -> PostgresStore {
        if name == userName { return self }
        let id = try read { session in try PostgresSchema.user(named: name, environment: [:], in: session).0 }
        return PostgresStore(link: link, userID: id, userName: name)
    }

    private func withSession<T>(_ body: (PostgresSession) throws -> T) throws -> T { try link.run(body) }

    /// Runs `body` outside a transaction (each statement on its own snapshot).
    @discardableResult
    func read<T>(_ body: (PostgresSession) throws -> T) throws -> T {
        try withSession(body)
    }

    /// Runs `body` in one read-only transaction on one snapshot (a whole-database export).
    func withSnapshot<T>(_ body: (PostgresSession) throws -> T) throws -> T {
        try withSession { session in try Self.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", in: session, body) }
    }

    /// `body` between `begin` and COMMIT, rolled back when it throws.
    private static func transaction<T>(_ begin: String, in session: PostgresSession, _ body: (PostgresSession) throws -> T) throws -> T {
        try session.execute(begin)
        do {
            let result = try body(session)
            try session.execute("COMMIT")
            return result
        } catch {
            if !session.connection.isClosed { _ = try? session.execute("ROLLBACK") }
            throw error
        }
    }

    /// Runs `body` in one transaction, committed when it returns and rolled back when it
    /// throws; tried again (up to three times) when the server cancels it for a deadlock
    /// or a serialization failure with another process.
    @discardableResult
    func write<T>(_ body: (PostgresSession) throws -> T) throws -> T {
        try withSession { session in
            var attempt = 0
            while true {
                attempt += 1
                do {
                    return try Self.transaction("BEGIN", in: session, body)
                } catch let error as PSQLError where attempt < 3 && ["40001", "40P01"].contains(error.serverInfo?[.sqlState]) {
                    continue
                }
            }
        }
    }

    /// A ``StoreError`` naming the database (never its password) and what the server said.
    static func storeError(_ error: any Error, at place: String) -> any Error {
        // Errors not from the server (an import's bad line, a stream's own failure) stay as they are.
        guard let error = error as? PSQLError else { return error }
        let message: String
        if let server = error.serverInfo, let text = server[.message] {
            let detail = server[.detail].map { " (\($0))" } ?? ""
            message = text + detail
        } else if let underlying = error.underlying {
            message = localized("cannot connect: \(underlying)")
        } else if error.code == .serverClosedConnection || error.code == .clientClosedConnection {
            message = localized("the server closed the connection")
        } else {
            message = "\(error.code)"
        }
        return StoreError(path: place, message: SecretRedactor.redactURLs(in: message))
    }

    /// Milliseconds since 1970, the unit every date column holds (as in the SQLite store).
    static func millis(_ date: Date) -> Int64 { EpochMillis.of(date) }

    static func date(_ millis: Int64) -> Date { EpochMillis.date(millis) }
}

/// The connection a read or transaction runs its statements on, synchronously.
struct PostgresSession {
    let connection: PostgresConnection
    let logger: Logger
    /// The database as messages name it.
    let place: String

    /// Runs `fragment`; how many rows it changed (or returned).
    @discardableResult
    func execute(_ fragment: SQLFragment) throws -> Int {
        try run(fragment).metadata.rows ?? 0
    }

    @discardableResult
    func execute(_ sql: String, _ values: [SQLValue] = []) throws -> Int {
        try execute(SQLFragment(sql, values))
    }

    /// The rows `fragment` returns.
    func rows(_ fragment: SQLFragment) throws -> [PostgresRandomAccessRow] {
        try run(fragment).rows.map { $0.makeRandomAccess() }
    }

    func rows(_ sql: String, _ values: [SQLValue] = []) throws -> [PostgresRandomAccessRow] {
        try rows(SQLFragment(sql, values))
    }

    /// The first column of the first row, or nil when there is no row.
    func value<T: PostgresDecodable>(_ type: T.Type, _ sql: String, _ values: [SQLValue] = []) throws -> T? {
        guard let row = try rows(sql, values).first else { return nil }
        return try row.get(0, as: T.self)
    }

    private func run(_ fragment: SQLFragment) throws -> PostgresQueryResult {
        try connection.query(fragment.query, logger: logger).wait()
    }
}

extension PostgresRandomAccessRow {
    /// Column `index` as `T`, NULL as nil.
    func get<T: PostgresDecodable>(_ index: Int, as type: T.Type = T.self) throws -> T? {
        let cell = self[index]
        guard cell.bytes != nil else { return nil }
        return try cell.decode(T.self)
    }
}
