import Foundation

/// One notification: the new items one rule matched in one pass, sent as a single digest
/// (count and first titles), never one message per item.
public struct NotificationDigest: Sendable {
    /// The rule's name.
    public var rule: String
    /// The matches, newest first (at most ``Notifier/maximumItems``).
    public var items: [StoredItem]
    /// How many items matched, `items` or not.
    public var total: Int

    public init(rule: String, items: [StoredItem], total: Int? = nil) {
        self.rule = rule
        self.items = items
        self.total = total ?? items.count
    }

    /// A short title: `aggr · swift-releases`.
    public var title: String { "aggr · \(rule)" }

    /// `3 new: First title · Second title · Third title` (the first three, then `+N more`).
    public var text: String {
        let titles = items.prefix(3).map { TerminalText.sanitize($0.item.title) }
        var text = localized("\(total) new: \(titles.joined(separator: " · "))")
        if total > titles.count { text += " · " + localized("+\(total - titles.count) more") }
        return text
    }

    /// The items as NDJSON in the output contract, a command's standard input.
    public var ndjson: [UInt8] {
        Array(items.map { ItemJSON.line($0) + "\n" }.joined().utf8)
    }

    /// The webhook body: `{"event":…,"rule":…,"total":…,"items":[…]}`.
    public func webhookBody(event: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("event")
        writer.string(event)
        writer.key("rule")
        writer.string(rule)
        writer.key("total")
        writer.integer(total)
        writer.key("items")
        writer.beginArray()
        for stored in items { ItemJSON.write(stored, to: &writer) }
        writer.endArray()
        writer.endObject()
        return Array(writer.output.utf8)
    }
}
