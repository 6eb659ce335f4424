import Aggregator
import Foundation

/// Renders stored items for people (aligned columns) and for programs (json, ndjson, tsv).
public struct TimelineRenderer: Sendable {
    public var terminal: TerminalProfile
    public var now: Date

    public init(terminal: TerminalProfile, now: Date) {
        self.terminal = terminal
        self.now = now
    }

    /// The whole output for `items` in `format`, ending with a newline unless empty text.
    public func render(_ items: [StoredItem], format: OutputFormat) -> String {
        switch format {
        case .json: return ItemJSON.array(items) + "\n"
        case .ndjson: return items.map { ItemJSON.line($0) + "\n" }.joined()
        case .tsv: return tsv(items)
        case .text: return items.isEmpty ? "" : text(items)
        }
    }

    /// The label of an item's source: its section title, else `provider/section`.
    static func sourceLabel(_ stored: StoredItem) -> String {
        TerminalText.sanitize(stored.sectionTitle ?? "\(stored.item.provider)/\(stored.item.section)")
    }

    /// The one counter worth a column, such as `12 replies` or `1.2k stars`.
    static func primaryMetric(_ metrics: Metrics) -> String {
        let candidates: [(Int?, String)] = [
            (metrics.replies, "replies"), (metrics.comments, "comments"), (metrics.stars, "stars"), (metrics.likes, "likes"),
        ]
        guard let (value, name) = candidates.first(where: { $0.0 != nil }), let count = value else { return "" }
        return Metrics.phrase(CountFormat.compact(count), counting: count, name)
    }

    func text(_ items: [StoredItem]) -> String {
        let refWidth = items.map { String($0.ref).count }.max() ?? 1
        // As wide as the widest age shown, so "2019-06-29" is never cut to "2019-…".
        let ages = items.map { RelativeTime.short($0.item.published, now: now) }
        let ageWidth = max(6, ages.map(DisplayWidth.of).max() ?? 0)
        let labels = items.map(Self.sourceLabel)
        let labelWidth = min(24, labels.map(DisplayWidth.of).max() ?? 0)
        let metrics = items.map { Self.primaryMetric($0.item.metrics) }
        let metricWidth = metrics.map(DisplayWidth.of).max() ?? 0
        // ref, marker, age, label and metric columns, each followed by two spaces.
        let fixed = refWidth + 2 + ageWidth + 2 + labelWidth + 2 + (metricWidth > 0 ? metricWidth + 2 : 0) + 2
        let titleWidth = max(12, terminal.width - fixed)
        var output = ""
        for (index, stored) in items.enumerated() {
            let unread = stored.isUnread
            let ref = DisplayWidth.pad(String(stored.ref), to: refWidth, alignRight: true)
            let marker = unread ? "*" : " "
            let age = DisplayWidth.pad(ages[index], to: ageWidth, alignRight: true)
            let label = DisplayWidth.pad(labels[index], to: labelWidth)
            let title = DisplayWidth.pad(TerminalText.sanitize(stored.item.title), to: titleWidth)
            let color = terminal.color
            var line = TextStyle.dim.apply(ref, enabled: color) + " " + TextStyle.yellow.apply(marker, enabled: color) + " "
            line += TextStyle.dim.apply(age, enabled: color) + "  " + TextStyle.cyan.apply(label, enabled: color) + "  "
            line += unread ? TextStyle.bold.apply(title, enabled: color) : title
            if metricWidth > 0 {
                line += "  " + TextStyle.dim.apply(DisplayWidth.pad(metrics[index], to: metricWidth, alignRight: true), enabled: color)
            }
            // The padding's spaces, dropped as bytes (a space never ends a longer character).
            let spaces = line.utf8.reversed().prefix { $0 == UInt8(ascii: " ") }.count
            output += spaces == 0 ? line : String(decoding: line.utf8.dropLast(spaces), as: UTF8.self)
            output += "\n"
        }
        return output
    }

    func tsv(_ items: [StoredItem]) -> String {
        func field(_ text: String) -> String { TerminalText.sanitize(text) }
        var output = "ref\tprovider\tsection\tid\tkind\tpublished\ttitle\turl\tauthor\ttags\n"
        for stored in items {
            let item = stored.item
            let columns = [
                String(stored.ref), item.provider, item.section, item.id, item.kind.rawValue,
                ISOTimestamp.format(item.published), item.title, item.url, item.author?.name ?? "",
                item.tags.joined(separator: ","),
            ]
            output += columns.map(field).joined(separator: "\t") + "\n"
        }
        return output
    }
}
