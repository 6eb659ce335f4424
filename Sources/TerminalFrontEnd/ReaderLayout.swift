import Aggregator
import Foundation

/// Lays the reader out as lines for a screen of a given size.
///
/// The tab bar, the item list, an item page, help, and the status line. Pure, so layout is
/// tested without a terminal.
public struct ReaderLayout: Sendable {
    public var width: Int
    public var height: Int
    public var now: Date

    public init(width: Int, height: Int, now: Date) {
        self.width = max(20, width)
        self.height = max(5, height)
        self.now = now
    }

    /// Every line of the screen, top to bottom.
    public func screen(_ model: ReaderModel, keys: ReaderKeys) -> [StyledLine] {
        var lines: [StyledLine]
        if model.showingHelp {
            lines = help(keys)
        } else if let page = model.page {
            lines = Array(page.lines.dropFirst(page.top).prefix(height - 1))
        } else {
            lines = [tabBar(model)] + list(model)
            if let error = model.filterError { lines += filterErrorLines(error) }
        }
        lines = Array(lines.prefix(height - 1))
        while lines.count < height - 1 { lines.append(StyledLine()) }
        lines.append(status(model, keys: keys))
        return lines.map { $0.truncated(to: width) }
    }

    /// A filter error as the CLI prints it (message, filter, caret), the filter and its caret
    /// shifted together when the caret would stand past the right edge.
    func filterErrorLines(_ error: String) -> [StyledLine] {
        var parts = error.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 3, let caret = parts[2].firstIndex(of: "^") {
            let column = parts[2].distance(from: parts[2].startIndex, to: caret)
            if column >= width - 1 {
                // Drop whole characters from the filter line until the caret is mid-screen,
                // and the same number of cells of the caret line's padding.
                let shift = column - width / 2
                var dropped = 0
                var source = Substring(parts[1])
                while dropped < shift, let first = source.first {
                    dropped += DisplayWidth.of(String(first))
                    source = source.dropFirst()
                }
                parts[1] = "…" + source
                parts[2] = String(repeating: " ", count: max(0, column - dropped + 1)) + "^"
            }
        }
        return parts.map { StyledLine($0, .error) }
    }

    /// `views… All providers…` with unread counts; the current tab stays in view.
    func tabBar(_ model: ReaderModel) -> StyledLine {
        let labels = model.tabs.enumerated().map { index, tab in
            (
                index,
                " " + TerminalText.sanitize(tab.label) + (tab.unread > 0 ? " \(tab.unread >= 1_000 ? "999+" : String(tab.unread))" : "")
                    + " "
            )
        }
        // Drop tabs from the left until the current one fits.
        var first = 0
        while first < model.currentTab,
            DisplayWidth.of(labels[first...model.currentTab].map(\.1).joined(separator: "│")) > width
        {
            first += 1
        }
        var spans: [(String, TextAttribute)] = first > 0 ? [("‹", .dim)] : []
        for (index, label) in labels.dropFirst(first) {
            if index > first { spans.append(("│", .dim)) }
            spans.append((label, index == model.currentTab ? .currentTab : .tab))
        }
        return StyledLine(spans)
    }

    /// One row per item: unread mark, age, source, title, counts.
    func list(_ model: ReaderModel) -> [StyledLine] {
        let rows = model.listRows(height: height)
        guard !model.items.isEmpty else {
            let tab = model.tabs.indices.contains(model.currentTab) ? model.tabs[model.currentTab].label : localized("this tab")
            let text =
                model.search.map { localized("  no matches for \"\($0)\" in \(tab); Esc clears the search") }
                ?? (model.filter != nil
                    ? localized("  nothing matches the filter in \(tab)") : localized("  nothing here yet: press R to refresh"))
            return [StyledLine(TerminalText.sanitize(text), .dim)]
        }
        return model.items.enumerated().dropFirst(model.top).prefix(rows).map { index, stored in
            row(stored, selected: index == model.selection)
        }
    }

    func row(_ stored: StoredItem, selected: Bool) -> StyledLine {
        let item = stored.item
        let unread = stored.readAt == nil
        let mark = unread ? "●" : " "
        let age = DisplayWidth.pad(RelativeTime.compact(item.published, now: now), to: 4, alignRight: true)
        let source = DisplayWidth.pad(TerminalText.sanitize(stored.sectionTitle.map { "\(item.provider)·\($0)" } ?? item.provider), to: 14)
        var counts: [String] = []
        if let replies = item.metrics.replies ?? item.metrics.comments { counts.append("\(replies)💬") }
        if let stars = item.metrics.stars { counts.append("\(stars)★") }
        if let likes = item.metrics.likes { counts.append("\(likes)♥") }
        let countText = counts.isEmpty ? "" : " " + counts.joined(separator: " ")
        let saved = stored.savedAt != nil ? "✚" : " "
        let fixed = 2 + 4 + 1 + 14 + 1 + 1
        let titleWidth = max(8, width - fixed - DisplayWidth.of(countText))
        let title = DisplayWidth.pad(TerminalText.sanitize(item.title), to: titleWidth)
        if selected {
            return StyledLine([("\(mark) \(age) \(source) \(saved)\(title)\(countText)", .selected)])
        }
        return StyledLine([
            ("\(mark) ", unread ? .unread : .dim), ("\(age) ", .dim), ("\(source) ", .accent), (saved, .accent),
            (title, unread ? .bold : .plain),
            (countText, .dim),
        ])
    }

    /// The bottom line: a prompt being typed, else filter, search, progress and a hint.
    func status(_ model: ReaderModel, keys: ReaderKeys) -> StyledLine {
        if let prompt = model.prompt {
            let label = (prompt.kind == .search ? localized("search") : localized("filter")) + ": "
            return StyledLine([(label, .accent), (prompt.text, .plain), ("▏", .plain)])
        }
        var parts: [String] = []
        if model.page != nil, !model.linkNumber.isEmpty { parts.append(localized("open link \(model.linkNumber) — Enter")) }
        if let message = model.message { parts.append(message) }
        if let progress = model.progress { parts.append(progress) }
        if let filter = model.filter { parts.append(localized("filter") + ": \(filter)") }
        if let search = model.search {
            let tab = model.tabs.indices.contains(model.currentTab) ? model.tabs[model.currentTab].label : nil
            parts.append(tab.map { localized("search: \(search) in \($0)") } ?? localized("search") + ": \(search)")
        }
        if model.page == nil, !model.items.isEmpty {
            parts.append("\(model.selection + 1)/\(model.items.count)\(model.moreToLoad ? "+" : "")")
        }
        let help = keys.bindings[.help]?.first ?? "?"
        parts.append(localized("\(help) help"))
        return StyledLine(TerminalText.sanitize(parts.joined(separator: " · ")), .dim)
    }

    /// The key list.
    func help(_ keys: ReaderKeys) -> [StyledLine] {
        let described: [(ReaderAction, String)] = [
            (.down, localized("next item / scroll down")), (.up, localized("previous item / scroll up")), (.top, localized("first")),
            (.bottom, localized("last")),
            (.pageDown, localized("page down")), (.pageUp, localized("page up")),
            (.open, localized("open the item (marks it read); on a page, open link N")),
            (.back, localized("back from a page, a search or a filter; q on the list quits")), (.nextTab, localized("next tab")),
            (.previousTab, localized("previous tab")),
            (.search, "search"),
            (.filter, localized("filter expression (empty clears)")), (.toggleRead, localized("toggle read")),
            (.toggleSaved, localized("toggle saved")),
            (.markTabRead, localized("mark the tab read")), (.openBrowser, localized("open in $BROWSER")),
            (.copyURL, localized("copy the URL (OSC 52)")),
            (.refresh, localized("refresh in the background")), (.reply, localized("reply upstream, composed in $EDITOR")),
            (.thank, localized("thank upstream (V2EX; asks first: it spends coins)")),
            (.favourite, localized("favourite upstream (again: unfavourite)")),
            (.like, localized("like upstream (again: unlike)")), (.star, localized("star the repository (again: unstar)")),
            (.react, localized("react 👍 (GitHub)")),
            (.fullText, localized("full text: the article of the item's page")),
            (.help, localized("this help")),
        ]
        var lines = [StyledLine(localized("aggr tui — keys (remap them under \"keys\" in providers.json)"), .bold), StyledLine()]
        for (action, text) in described {
            let names = (keys.bindings[action] ?? []).joined(separator: " ")
            // A description wraps under its own column, so narrow terminals lose none of it.
            for (index, part) in TextWrap.lines(text, width: max(10, width - 22)).enumerated() {
                lines.append(StyledLine([(DisplayWidth.pad(index == 0 ? names : "", to: 22), .accent), (part, .plain)]))
            }
        }
        lines.append(StyledLine())
        let closing = localized("On an item page: type a link's number, then Enter, to open it. Any key closes this help.")
        for line in TextWrap.lines(closing, width: width) { lines.append(StyledLine(line, .dim)) }
        return lines
    }

    /// An opened item's lines: title, facts (with what the user did upstream, `done`), URL,
    /// room for its image (with `imageRows`), text with numbered links, links, thread.
    public func page(
        _ stored: StoredItem, thread: [StoredItem], threadNote: String?, imageRows: Int = 0, done: Set<ItemAction> = []
    ) -> ItemPage {
        let item = stored.item
        let textWidth = width - 2
        var lines: [StyledLine] = []
        for line in TextWrap.lines(TerminalText.sanitize(item.title), width: textWidth) { lines.append(StyledLine(line, .bold)) }
        var facts = [stored.sectionTitle.map { "\(item.provider) · \($0)" } ?? item.provider]
        if let author = item.author?.name, !author.isEmpty { facts.append(author) }
        facts.append(RelativeTime.long(item.published, now: now))
        let metrics = item.metrics.phrases
        let states = ItemAction.allCases.filter(done.contains).map(\.doneState)
        if !states.isEmpty { facts.append("you " + states.joined(separator: ", ")) }
        for line in TextWrap.lines(TerminalText.sanitize((facts + metrics).joined(separator: " · ")), width: textWidth) {
            lines.append(StyledLine(line, .dim))
        }
        lines.append(StyledLine(TerminalText.sanitize(item.url), .accent))
        lines.append(StyledLine())
        var imageArea: ImageArea?
        if imageRows > 0 {
            imageArea = ImageArea(line: lines.count, columns: min(textWidth, 64), rows: imageRows)
            lines += Array(repeating: StyledLine(), count: imageRows + 1)
        }
        let readable: (text: String, links: [String]) = item.content.map { HTMLText.readable($0, baseURL: item.url) } ?? (item.summary, [])
        var links = readable.links
        for line in TextWrap.lines(TerminalText.sanitize(readable.text, singleLine: false), width: textWidth) {
            lines.append(StyledLine(line))
        }
        if !thread.isEmpty || threadNote != nil {
            lines.append(StyledLine())
            // "0 of 29 replies" when the site counts more than are stored.
            let counted = item.metrics.replies ?? item.metrics.comments ?? 0
            let label =
                counted > thread.count
                ? "── " + localized("\(thread.count) of \(Metrics.phrase("\(counted)", counting: counted, "replies"))") + " "
                : "── \(Metrics.phrase("\(thread.count)", counting: thread.count, "replies")) "
            lines.append(StyledLine(label + String(repeating: "─", count: max(0, textWidth - DisplayWidth.of(label))), .accent))
            if let threadNote {
                for line in TextWrap.lines(TerminalText.sanitize(threadNote), width: textWidth) { lines.append(StyledLine(line, .dim)) }
            }
            for reply in thread {
                let floor = reply.item.extra["floor"].map { "#\($0) " } ?? ""
                let who = reply.item.author?.name ?? "?"
                lines.append(StyledLine())
                lines.append(
                    StyledLine([
                        (TerminalText.sanitize("\(floor)\(who)"), .bold), (" · " + RelativeTime.long(reply.item.published, now: now), .dim),
                    ]))
                var text = reply.item.summary
                if let content = reply.item.content {
                    (text, links) = HTMLText.readable(content, baseURL: reply.item.url, numberedAfter: links)
                }
                for line in TextWrap.lines(TerminalText.sanitize(text, singleLine: false), width: textWidth) {
                    lines.append(StyledLine("  " + line))
                }
            }
        }
        if !links.isEmpty {
            lines.append(StyledLine())
            lines.append(StyledLine("── links " + String(repeating: "─", count: max(0, textWidth - 9)), .accent))
            for (index, link) in links.enumerated() {
                lines.append(StyledLine([("[\(index + 1)] ", .accent), (TerminalText.sanitize(link), .plain)]))
            }
        }
        var page = ItemPage(stored: stored, lines: lines, links: links)
        page.imageArea = imageArea
        return page
    }
}
