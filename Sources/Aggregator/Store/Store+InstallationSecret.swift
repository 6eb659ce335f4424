import Foundation
internal import GRDB

extension Store {
    /// The secret this installation keeps for `purpose` (such as `serve`), made on first use:
    /// 32 random bytes as hex, never shown or exported.
    public func installationSecret(_ purpose: String, now: Date = Date()) throws -> String {
        if let stored = try read({ db in
            try String.fetchOne(db, sql: "SELECT value FROM installation_secret WHERE purpose = ?", arguments: [purpose])
        }) {
            return stored
        }
        return try write { db in
            // Two processes starting at once agree on the first one written.
            try db.execute(
                sql: "INSERT OR IGNORE INTO installation_secret (purpose, value, created_at) VALUES (?, ?, ?)",
                arguments: [purpose, RandomToken.hex(), Self.millis(now)])
            return try String.fetchOne(db, sql: "SELECT value FROM installation_secret WHERE purpose = ?", arguments: [purpose]) ?? ""
        }
    }

    /// Replaces the secret for `purpose` with a new one: everything signed with the old one
    /// (reader-app tokens, form tokens) stops working.
    public func rotateInstallationSecret(_ purpose: String, now: Date = Date()) throws {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO installation_secret (purpose, value, created_at) VALUES (?, ?, ?)
                    ON CONFLICT (purpose) DO UPDATE SET value = excluded.value, created_at = excluded.created_at
                    """,
                arguments: [purpose, RandomToken.hex(), Self.millis(now)])
        }
    }
}
