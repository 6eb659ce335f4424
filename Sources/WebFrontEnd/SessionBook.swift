import Aggregator
import Foundation
import Synchronization

/// Browser sessions, kept in the database so every `aggr serve` on it knows them: a random
/// id in an HttpOnly, SameSite=Strict cookie, each with its own CSRF token and the user who
/// signed in.
///
/// A session exists only once someone signed in; a visitor without one carries a signed
/// form cookie instead (``WebSite/visitor(_:)``), so no flood of visitors fills the table.
/// The database holds the SHA-256 of each id, never the id. A database that cannot be
/// written (a read-only SQLite file) leaves them in this process's memory.
public final class SessionBook: Sendable {
    /// One signed-in session.
    public struct Session: Sendable, Equatable {
        public var id: String
        public var csrf: String
        /// The database user who signed in; nil for the password in the config.
        public var user: String?
        public var expires: Date
    }

    /// The cookie's name.
    public static let cookie = "aggr_session"
    /// How long a session lasts without use.
    public static let lifetime: TimeInterval = 30 * 86_400
    /// How much of its lifetime a session may use before a visit writes a new expiry (one
    /// write a day per session, not one per page).
    static let renewal: TimeInterval = 86_400

    let storage: any TimelineStorage
    /// Where sessions are kept when the database cannot be written (a read-only SQLite file
    /// served as it is): this process's memory, at most ``memoryCapacity`` of them.
    private let memory = Mutex<[String: WebSessionRecord]>([:])
    private let inMemory: Bool
    static let memoryCapacity = 10_000

    public init(storage: any TimelineStorage) {
        self.storage = storage
        inMemory = storage.isReadOnly
    }

    /// The live session `id` names, its lifetime extended.
    public func session(_ id: String?, now: Date = Date()) throws -> Session? {
        guard let id, WebSite.isNonce(id) else { return nil }
        guard var record = try find(RequestSigner.sha256Hex(id), now: now) else { return nil }
        if record.expires.timeIntervalSince(now) < Self.lifetime - Self.renewal {
            record.expires = now.addingTimeInterval(Self.lifetime)
            try keep(record, now: now)
        }
        return Session(id: id, csrf: record.csrf, user: record.user, expires: record.expires)
    }

    /// Starts a session for `user` (nil: signed in with the config's password).
    public func start(user: String?, now: Date = Date()) throws -> Session {
        let session = Session(id: Self.token(), csrf: Self.token(), user: user, expires: now.addingTimeInterval(Self.lifetime))
        try keep(
            WebSessionRecord(idHash: RequestSigner.sha256Hex(session.id), csrf: session.csrf, user: user, expires: session.expires),
            now: now)
        return session
    }

    /// Ends session `id`.
    public func end(_ id: String) throws {
        let idHash = RequestSigner.sha256Hex(id)
        if inMemory {
            _ = memory.withLock { $0.removeValue(forKey: idHash) }
        } else {
            try storage.endWebSession(idHash)
        }
    }

    private func find(_ idHash: String, now: Date) throws -> WebSessionRecord? {
        guard inMemory else { return try storage.webSession(idHash, now: now) }
        return memory.withLock { table in table[idHash].flatMap { $0.expires > now ? $0 : nil } }
    }

    private func keep(_ record: WebSessionRecord, now: Date) throws {
        guard inMemory else { return try storage.saveWebSession(record, now: now) }
        memory.withLock { table in
            if table.count >= Self.memoryCapacity {
                table = table.filter { $0.value.expires > now }
                if table.count >= Self.memoryCapacity, let oldest = table.min(by: { $0.value.expires < $1.value.expires }) {
                    table.removeValue(forKey: oldest.key)
                }
            }
            table[record.idHash] = record
        }
    }

    /// 32 random bytes as hex.
    public static func token() -> String { RandomToken.hex() }

    /// Compares two secrets in time independent of where they differ.
    public static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8)
        let right = Array(b.utf8)
        var difference = UInt8(left.count == right.count ? 0 : 1)
        for index in 0..<max(left.count, right.count) {
            difference |= (index < left.count ? left[index] : 0) ^ (index < right.count ? right[index] : 0)
        }
        return difference == 0
    }
}
