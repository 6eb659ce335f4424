import Foundation
import Synchronization

/// Limits password guesses per client.
///
/// After ``limit`` different wrong passwords within ``window`` the client must wait until
/// the oldest of them ages out. The same wrong password sent again is not another guess:
/// a reader app with a stale password retrying every feed it follows would otherwise lock
/// out every app and browser behind that address, the right password included, while a
/// guesser must send different passwords and is still held to ``limit``. Passwords are
/// kept only as this process's seeded hashes. Web sign-in, feeds and the reader API share it.
public final class LoginThrottle: Sendable {
    public static let limit = 5
    public static let window: TimeInterval = 300

    /// Per client, each wrong password's hash and when it was last sent.
    private let failures = Mutex<[String: [Int: Date]]>([:])

    public init() {}

    /// When `client` may try again, or nil when it may try now.
    public func blockedUntil(_ client: String, now: Date = Date()) -> Date? {
        failures.withLock { table in
            let recent = (table[client] ?? [:]).filter { now.timeIntervalSince($0.value) < Self.window }
            table[client] = recent.isEmpty ? nil : recent
            guard recent.count >= Self.limit else { return nil }
            return recent.values.min().map { $0.addingTimeInterval(Self.window) }
        }
    }

    /// Records wrong password `given` from `client`.
    public func failed(_ client: String, password given: String, now: Date = Date()) {
        var hasher = Hasher()
        hasher.combine(given)
        let guess = hasher.finalize()
        failures.withLock { table in
            table[client, default: [:]][guess] = now
            if table.count > 10_000 {
                table = table.filter { ($0.value.values.max() ?? now) > now.addingTimeInterval(-Self.window) }
            }
        }
    }

    /// Forgets `client`'s failures after a right password.
    public func succeeded(_ client: String) {
        failures.withLock { _ = $0.removeValue(forKey: client) }
    }
}
