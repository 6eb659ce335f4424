import Foundation
internal import GRDB

extension Store {
    /// Every stored section with its title and unread count, by provider and key.
    public func sections() throws -> [SectionSummary] {
        try read { db in
            var unread: [String: (Int, Int64)] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT provider, section, count(*), max(published) FROM item WHERE read_at IS NULL GROUP BY provider, section")
            {
                let provider: String = row[0]
                let section: String = row[1]
                unread[provider + "\u{0}" + section] = (row[2], row[3])
            }
            return try Row.fetchAll(db, sql: "SELECT provider, key, title FROM section ORDER BY provider, key").map { row in
                let provider: String = row[0]
                let key: String = row[1]
                let counts = unread[provider + "\u{0}" + key]
                return SectionSummary(
                    provider: provider, key: key, title: row[2], unread: counts?.0 ?? 0,
                    newestUnread: counts.map { Date(timeIntervalSince1970: Double($0.1) / 1000) })
            }
        }
    }

    /// Every stored section with its title, without counting (unread counts are zero): a
    /// listing that must not read every item.
    public func sectionTitles() throws -> [SectionSummary] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT provider, key, title FROM section ORDER BY provider, key").map {
                SectionSummary(provider: $0[0], key: $0[1], title: $0[2])
            }
        }
    }
}
