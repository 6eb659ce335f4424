import Aggregator
import Foundation

/// Renders one item in full for `aggr show`: header facts, then the content as readable text.
public struct ItemDetailRenderer: Sendable {
    public var terminal: TerminalProfile
    public var now: Date

    public init(terminal: TerminalProfile, now: Date) {
        self.terminal = terminal
        self.now = now
    }

    /// `stored` in full; `done` is what the user did to it upstream through aggr; `article`
    /// (its page's full text) replaces the feed's content.
    public func render(_ stored: StoredItem, done: Set<ItemAction> = [], article: Article? = nil) -> String {
        let item = stored.item
        let color = terminal.color
        func clean(_ text: String) -> String { TerminalText.sanitize(text) }
        var lines: [String] = []
        lines.append(TextStyle.bold.apply(clean(item.title), enabled: color))
        var facts = [TimelineRenderer.sourceLabel(stored), item.kind.rawValue]
        if let author = item.author { facts.append(localized("by \(clean(author.name))")) }
        facts.append("\(RelativeTime.long(item.published, now: now)) (\(ISOTimestamp.format(item.published)))")
        lines.append(TextStyle.dim.apply(facts.joined(separator: " · "), enabled: color))
        lines.append(TextStyle.cyan.apply(clean(item.url), enabled: color))
        var details: [String] = [
            "ref \(stored.ref)", "id \(clean(item.provider)):\(clean(item.id))", stored.isUnread ? localized("unread") : localized("read"),
        ]
        if stored.isSaved { details.append(localized("saved")) }
        details += ItemAction.allCases.filter(done.contains).map(\.doneByYou)
        if let updated = item.updated { details.append(localized("updated \(ISOTimestamp.format(updated))")) }
        lines.append(TextStyle.dim.apply(details.joined(separator: " · "), enabled: color))
        let metrics = item.metrics.phrases
        if !metrics.isEmpty { lines.append(metrics.joined(separator: " · ")) }
        if !item.tags.isEmpty { lines.append(localized("tags: \(item.tags.map(clean).joined(separator: ", "))")) }
        if !item.extra.isEmpty {
            lines.append(item.extra.keys.sorted().map { "\(clean($0)): \(clean(item.extra[$0]!))" }.joined(separator: " · "))
        }
        if let image = item.image { lines.append(localized("image: \(clean(image))")) }
        if let article {
            lines.append(
                TextStyle.dim.apply(
                    localized("full text") + (article.byline.map { " · " + localized("by \(clean($0))") } ?? ""), enabled: color))
        }
        let body = article.map { HTMLText.plainText($0.content) } ?? item.content.map(HTMLText.plainText) ?? item.summary
        let text = TerminalText.sanitize(body, singleLine: false)
        if !text.isEmpty {
            lines.append("")
            lines.append(text)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
