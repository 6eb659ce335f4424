import Aggregator
import Foundation

extension PostgresStore {
    public func webSession(_ idHash: String, now: Date) throws -> WebSessionRecord? {
        try read { session in
            let rows = try session.rows(
                "SELECT csrf, user_name, expires_at FROM web_session WHERE id_hash = ? AND expires_at > ?",
                [.text(idHash), .integer(Self.millis(now))])
            guard let row = rows.first, let csrf = try row.get(0, as: String.self), let expires = try row.get(2, as: Int64.self) else {
                return nil
            }
            return WebSessionRecord(idHash: idHash, csrf: csrf, user: try row.get(1, as: String.self), expires: Self.date(expires))
        }
    }

    public func saveWebSession(_ record: WebSessionRecord, now: Date) throws {
        try write { session in
            try session.execute("DELETE FROM web_session WHERE expires_at <= ?", [.integer(Self.millis(now))])
            try session.execute(
                """
                INSERT INTO web_session (id_hash, csrf, user_name, expires_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (id_hash) DO UPDATE SET csrf = excluded.csrf, user_name = excluded.user_name, expires_at = excluded.expires_at
                """, [.text(record.idHash), .text(record.csrf), .text(record.user), .integer(Self.millis(record.expires))])
        }
    }

    public func endWebSession(_ idHash: String) throws {
        try write { session in _ = try session.execute("DELETE FROM web_session WHERE id_hash = ?", [.text(idHash)]) }
    }
}
