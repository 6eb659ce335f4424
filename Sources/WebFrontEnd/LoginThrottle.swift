import Foundation
import Synchronization

/// Limits wrong passwords per client.
///
/// After ``limit`` failures within ``window`` the client must wait until the oldest of them
/// ages out. Web logins and the reader API share it.
public final class LoginThrottle: Sendable {
    public static let limit = 5
    public static let window: TimeInterval = 300

    private let failures = Mutex<[String: [Date]]>([:])

    public init() {}

    /// When `client` may try again, or nil when it may try now.
    public func blockedUntil(_ client: String, now: Date = Date()) -> Date? {
        failures.withLock { table in
            let recent = (table[client] ?? []).filter { now.timeIntervalSince($0) < Self.window }
            table[client] = recent.isEmpty ? nil : recent
            return recent.count >= Self.limit ? recent.first.map { $0.addingTimeInterval(Self.window) } : nil
        }
    }

    /// Records a wrong password from `client`.
    public func failed(_ client: String, now: Date = Date()) {
        failures.withLock { table in
            table[client, default: []].append(now)
            if table.count > 10_000 { table = table.filter { ($0.value.last ?? now) > now.addingTimeInterval(-Self.window) } }
        }
    }

    /// Forgets `client`'s failures after a right password.
    public func succeeded(_ client: String) {
        failures.withLock { _ = $0.removeValue(forKey: client) }
    }
}
