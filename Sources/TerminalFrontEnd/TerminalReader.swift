import Aggregator
import Foundation

/// `aggr tui`: the merged timeline as an interactive reader in the terminal.
///
/// Parses keys into ``ReaderAction``s, calls the library (timeline pages, search, read and
/// saved state, refresh), and draws through ``ReaderLayout``. Every upstream string goes
/// through the terminal sanitizer before it is drawn.
public final class TerminalReader {
    /// Items loaded per page of the list (more load as the selection nears the end).
    static let pageSize = 200

    /// The library: every page, count, mark, thread and refresh goes through it.
    let session: LibrarySession
    let keys: ReaderKeys
    let color: Bool
    var model: ReaderModel
    var nextCursor: TimelineCursor?
    /// The data version the list and counts were read at; another process's write moves it.
    var seenVersion: Int64 = 0
    let refreshState = SharedRefreshState()
    let threadFetch = SharedThreadFetch()
    let images: InlineImageProtocol?
    let imageFetch = SharedImageFetch()
    /// The inline image on screen: its item and the screen row it starts on.
    var shownImage: (ref: Int64, row: Int)?
    /// Unread counts to recount when no key is waiting (after opening or marking an item).
    var countsStale = false
    /// An upstream action under way, and its outcome when it ends.
    let upstreamRun = SharedUpstreamRun()
    /// A page being read for its article.
    let fullTextRun = SharedFullTextRun()
    /// An action that costs, waiting for `y` on the status line.
    var confirming: (order: ItemActions.Order, stored: StoredItem)?
    /// The item whose image failure the status line already told.
    var reportedImageError: Int64?
    var screen: CursesScreen?

    /// A reader over `session`; `images` draws items' images inline with that protocol
    /// (nil: never, the default).
    public init(session: LibrarySession, images: InlineImageProtocol? = nil) {
        self.images = images
        self.session = session
        keys = session.configuration.keys
        let environment = session.environment
        color = environment["NO_COLOR"].map { $0.isEmpty } ?? true && environment["TERM"] != "dumb"
        model = ReaderModel(tabs: session.tabs().map { ReaderTab(tab: $0) })
    }

    var environment: [String: String] { session.environment }

    /// Runs until the user quits; the terminal is restored however it ends.
    public func run() throws {
        let screen = try CursesScreen(color: color)
        self.screen = screen
        let stop = Self.restoreOnSignals(screen)
        defer {
            if shownImage != nil, images == .kitty { StandardStream.output.write(KittyGraphics.deleteAll) }
            screen.close()
            stop.forEach { $0.cancel() }
        }
        seenVersion = try session.dataVersion()
        try reloadItems()
        try updateCounts()
        draw()
        while true {
            let busy =
                refreshState.withLock { $0.running } || threadFetch.running || imageFetch.running || upstreamRun.running
                || fullTextRun.running
            // Unread counts changed by a keypress are recounted just after its redraw.
            let event = screen.readKey(timeout: countsStale ? 10 : busy ? 100 : 1_000)
            switch event {
            case .resize:
                model.keepSelectionVisible(height: screen.height)
            case .idle where countsStale:
                countsStale = false
                try updateCounts()
            case .idle:
                try followRefresh()
                try followThreadFetch()
                try followUpstream()
                try followFullText()
                if let page = model.page, case .failure(let error)? = imageFetch.result(for: page.stored.ref),
                    reportedImageError != page.stored.ref
                {
                    reportedImageError = page.stored.ref
                    model.message = localized("image not shown: \(error)")
                }
                // Each idle second: what another process wrote (items stored by aggr watch,
                // a read mark made in the web or a reader app) shows.
                try followOtherWriters()
            case .key(let name):
                model.message = nil
                if try !handle(name) { return }
            }
            draw()
        }
    }

    func draw() {
        guard let screen else { return }
        let layout = ReaderLayout(width: screen.width, height: screen.height, now: Date())
        let wanted = wantedImage()
        if let shown = shownImage, shown.ref != wanted?.ref || shown.row != wanted?.row {
            // Wipe it: kitty deletes its placements; sixel pixels go with a full repaint.
            if images == .kitty { StandardStream.output.write(KittyGraphics.deleteAll) }
            screen.repaintAll()
            shownImage = nil
        }
        screen.draw(layout.screen(model, keys: keys))
        if shownImage == nil, let wanted, let image = imageFetch.result(for: wanted.ref), case .success(let cells) = image {
            screen.writeOutOfBand(cells.sequence, row: wanted.row, column: 1)
            shownImage = wanted
        }
    }

    /// The item whose image should be on screen and its row: the open page's, while its
    /// whole image area is in view and nothing covers the page.
    func wantedImage() -> (ref: Int64, row: Int)? {
        guard images != nil, let page = model.page, let area = page.imageArea, !model.showingHelp, model.prompt == nil,
            page.top <= area.line, area.line + area.rows <= page.top + height - 1
        else { return nil }
        return (page.stored.ref, area.line - page.top)
    }

    var height: Int { screen?.height ?? 24 }

}
