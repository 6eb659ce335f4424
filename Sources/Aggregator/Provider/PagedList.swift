/// A list that spans pages, read up to a number of pages; it owns what an unchanged page
/// means, so providers only say how to fetch a page and where the next one is.
public struct PagedList<Cursor: Sendable>: Sendable {
    /// What a page that did not change since the last refresh means.
    public enum Unchanged: Sendable {
        /// Page 1 unchanged: the whole section is unchanged; a later one ends the list (APIs
        /// whose later pages only shift when page 1 changes).
        case endsList
        /// The page is skipped and the one `then` names read; the section is unchanged only
        /// when every page is (sites whose later pages change on their own, like reply counts).
        case isSkipped(then: @Sendable (Cursor) -> Cursor?)
    }

    /// One page read: its items and the cursor of the next page, nil at the end.
    public struct Page: Sendable {
        public var items: [Item]
        public var next: Cursor?

        public init(items: [Item], next: Cursor?) {
            self.items = items
            self.next = next
        }
    }

    public var first: Cursor
    /// At most this many pages are read.
    public var pages: Int
    public var unchanged: Unchanged

    public init(first: Cursor, pages: Int, unchanged: Unchanged = .endsList) {
        self.first = first
        self.pages = max(1, pages)
        self.unchanged = unchanged
    }

    /// Reads the pages; nil means the section is unchanged.
    ///
    /// `fetch` GETs one (nil when unchanged); `parse` turns it into items and the next
    /// cursor, given the number of items read before it (ranks continue across pages).
    public func read<Response>(
        fetch: (Cursor) async throws -> Response?,
        parse: (Response, _ cursor: Cursor, _ readBefore: Int) throws -> Page
    ) async throws -> [Item]? {
        var items: [Item] = []
        var changed = false
        var cursor: Cursor? = first
        for number in 1...pages {
            guard let current = cursor else { break }
            guard let response = try await fetch(current) else {
                guard case .isSkipped(let then) = unchanged else { return number == 1 ? nil : items }
                cursor = then(current)
                continue
            }
            changed = true
            let page = try parse(response, current, items.count)
            items += page.items
            cursor = page.next
        }
        return changed ? items : nil
    }
}
