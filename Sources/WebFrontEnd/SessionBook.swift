import Aggregator
import Foundation
import Synchronization

/// Browser sessions, kept in memory: a random id in an HttpOnly, SameSite=Strict cookie,
/// each with its own CSRF token and whether it signed in.
///
/// Every visitor gets a session on the first page (signed in or not), so every
/// state-changing form carries a CSRF token even on loopback without a password.
public final class SessionBook: Sendable {
    /// One session.
    public struct Session: Sendable, Equatable {
        public var id: String
        public var csrf: String
        public var signedIn: Bool
        public var expires: Date
    }

    /// The cookie's name.
    public static let cookie = "aggr_session"
    /// How long a session lasts without use.
    public static let lifetime: TimeInterval = 30 * 86_400
    /// The most sessions kept; the oldest go first.
    static let capacity = 10_000

    private let sessions = Mutex<[String: Session]>([:])

    public init() {}

    /// The live session `id` names, its lifetime extended.
    public func session(_ id: String?, now: Date = Date()) -> Session? {
        guard let id else { return nil }
        return sessions.withLock { table in
            guard var session = table[id] else { return nil }
            guard session.expires > now else {
                table.removeValue(forKey: id)
                return nil
            }
            session.expires = now.addingTimeInterval(Self.lifetime)
            table[id] = session
            return session
        }
    }

    /// Starts a session.
    public func start(signedIn: Bool, now: Date = Date()) -> Session {
        let session = Session(id: Self.token(), csrf: Self.token(), signedIn: signedIn, expires: now.addingTimeInterval(Self.lifetime))
        sessions.withLock { table in
            if table.count >= Self.capacity {
                table = table.filter { $0.value.expires > now }
                if table.count >= Self.capacity, let oldest = table.min(by: { $0.value.expires < $1.value.expires }) {
                    table.removeValue(forKey: oldest.key)
                }
            }
            table[session.id] = session
        }
        return session
    }

    /// Ends session `id`.
    public func end(_ id: String) {
        sessions.withLock { _ = $0.removeValue(forKey: id) }
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
