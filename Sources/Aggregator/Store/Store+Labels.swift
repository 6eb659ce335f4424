import Foundation
internal import GRDB

/// Labels users put on items (`user/-/label/…` from reader apps), kept per item and tested
/// by the filter language's `labels` field.
extension Store {
    @discardableResult
    public func setLabel(_ label: String, on refs: [Int64], _ labelled: Bool) throws -> Int {
        try write { db in
            let exists = try db.cachedStatement(sql: "SELECT 1 FROM item WHERE ref = ?")
            let change = try db.cachedStatement(
                sql: labelled
                    ? "INSERT OR IGNORE INTO item_label (label, ref) VALUES (?, ?)" : "DELETE FROM item_label WHERE label = ? AND ref = ?")
            var found = 0
            var changed = false
            for ref in refs where try Bool.fetchOne(exists, arguments: [ref]) == true {
                found += 1
                try change.execute(arguments: [label, ref])
                changed = changed || db.changesCount > 0
            }
            if changed { try Self.noteTimelineChange(in: db) }
            return found
        }
    }

    public func labels(of refs: [Int64]) throws -> [Int64: [String]] {
        guard !refs.isEmpty else { return [:] }
        return try read { db in
            var labels: [Int64: [String]] = [:]
            for chunk in stride(from: 0, to: refs.count, by: 500).map({ refs[$0..<min($0 + 500, refs.count)] }) {
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                for row in try Row.fetchAll(
                    db, sql: "SELECT ref, label FROM item_label WHERE ref IN (\(marks)) ORDER BY label",
                    arguments: StatementArguments(Array(chunk)))
                {
                    labels[row[0], default: []].append(row[1])
                }
            }
            return labels
        }
    }

    public func labelUse() throws -> [(label: String, items: Int)] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT label, count(*) FROM item_label GROUP BY label ORDER BY label").map { ($0[0], $0[1]) }
        }
    }

    @discardableResult
    public func renameLabel(_ label: String, to newName: String) throws -> Int {
        guard label != newName else { return try labelUse().first { $0.label == label }?.items ?? 0 }
        return try write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO item_label (label, ref) SELECT ?, ref FROM item_label WHERE label = ?",
                arguments: [newName, label])
            try db.execute(sql: "DELETE FROM item_label WHERE label = ?", arguments: [label])
            let renamed = db.changesCount
            if renamed > 0 { try Self.noteTimelineChange(in: db) }
            return renamed
        }
    }

    @discardableResult
    public func removeLabel(_ label: String) throws -> Int {
        try write { db in
            try db.execute(sql: "DELETE FROM item_label WHERE label = ?", arguments: [label])
            let removed = db.changesCount
            if removed > 0 { try Self.noteTimelineChange(in: db) }
            return removed
        }
    }
}
