import Aggregator
import Foundation

/// One tab of the reader (a view, everything, or a provider) with its unread count.
public struct ReaderTab: Sendable, Equatable {
    public var tab: TimelineTab
    public var unread = 0

    public init(tab: TimelineTab, unread: Int = 0) {
        self.tab = tab
        self.unread = unread
    }

    public var label: String { tab.label }
}

/// An opened item: its text laid out for the screen, its links, its scroll position.
public struct ItemPage: Sendable {
    public var stored: StoredItem
    public var lines: [StyledLine]
    /// Link targets, numbered from 1 in the text.
    public var links: [String]
    public var top = 0
    /// Blank lines kept for the item's inline image: the first line's index and the cells.
    public var imageArea: ImageArea?
}

/// Where an item page keeps room for its inline image.
public struct ImageArea: Sendable, Equatable {
    public var line: Int
    public var columns: Int
    public var rows: Int

    public init(line: Int, columns: Int, rows: Int) {
        self.line = line
        self.columns = columns
        self.rows = rows
    }
}

/// What the reader shows and where the user is: pure state, changed by actions.
public struct ReaderModel: Sendable {
    /// What a line of input is being typed for.
    public enum PromptKind: Sendable, Equatable {
        case search, filter
    }

    public var tabs: [ReaderTab]
    public var currentTab = 0
    public var items: [StoredItem] = []
    public var selection = 0
    /// The first list row on screen.
    public var top = 0
    public var page: ItemPage?
    public var showingHelp = false
    /// The prompt being typed, with its text so far.
    public var prompt: (kind: PromptKind, text: String)?
    public var search: String?
    public var filter: String?
    /// A filter that does not parse: the error with its caret, shown under the list.
    public var filterError: String?
    /// A passing message (opened, copied, marked).
    public var message: String?
    /// Refresh progress, while one runs.
    public var progress: String?
    /// Digits typed on an item page: the link to open.
    public var linkNumber = ""
    /// Whether the tab has items past the loaded ones (the position reads `1/200+`).
    public var moreToLoad = false

    public init(tabs: [ReaderTab]) {
        self.tabs = tabs
        currentTab = tabs.firstIndex { $0.tab == .all } ?? 0
    }

    public var selected: StoredItem? { items.indices.contains(selection) ? items[selection] : nil }

    /// Rows the list has on a screen `height` rows tall (tabs, status and error lines aside).
    public func listRows(height: Int) -> Int {
        max(1, height - 2 - (filterError.map { $0.split(separator: "\n").count } ?? 0))
    }

    /// Moves the selection by `delta`, keeping it on screen.
    public mutating func move(by delta: Int, height: Int) {
        guard !items.isEmpty else { return }
        selection = min(items.count - 1, max(0, selection + delta))
        keepSelectionVisible(height: height)
    }

    public mutating func keepSelectionVisible(height: Int) {
        let rows = listRows(height: height)
        if selection < top { top = selection }
        if selection >= top + rows { top = selection - rows + 1 }
        top = max(0, min(top, max(0, items.count - rows)))
    }

    /// Replaces the items, keeping the selection on the same item when it is still there.
    public mutating func replaceItems(_ new: [StoredItem], height: Int) {
        let keep = selected?.ref
        items = new
        if let keep, let index = new.firstIndex(where: { $0.ref == keep }) {
            selection = index
        } else {
            selection = min(selection, max(0, new.count - 1))
        }
        keepSelectionVisible(height: height)
    }

    /// Scrolls an open page by `delta` lines.
    public mutating func scrollPage(by delta: Int, height: Int) {
        guard var page else { return }
        let rows = max(1, height - 1)
        page.top = max(0, min(page.top + delta, max(0, page.lines.count - rows)))
        self.page = page
    }
}
