import Foundation
internal import GRDB

extension Store {
    public func webSession(_ idHash: String, now: Date) throws -> WebSessionRecord? {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT csrf, user_name, expires_at FROM web_session WHERE id_hash = ? AND expires_at > ?",
                    arguments: [idHash, Self.millis(now)])
            else { return nil }
            return WebSessionRecord(idHash: idHash, csrf: row[0], user: row[1], expires: EpochMillis.date(row[2]))
        }
    }

    public func saveWebSession(_ record: WebSessionRecord, now: Date) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM web_session WHERE expires_at <= ?", arguments: [Self.millis(now)])
            try db.execute(
                sql: "INSERT OR REPLACE INTO web_session (id_hash, csrf, user_name, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [record.idHash, record.csrf, record.user, Self.millis(record.expires)])
        }
    }

    public func endWebSession(_ idHash: String) throws {
        try write { db in try db.execute(sql: "DELETE FROM web_session WHERE id_hash = ?", arguments: [idHash]) }
    }
}
