import Aggregator
import Foundation
import Synchronization

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
    /// The item whose image failure the status line already told.
    var reportedImageError: Int64?
    var screen: CursesScreen?

    /// A background refresh's progress, written by its task and read by the loop.
    final class SharedRefreshState: Sendable {
        private let state = Mutex(RefreshState())

        func withLock<Result>(_ body: (inout RefreshState) -> Result) -> Result {
            state.withLock { body(&$0) }
        }
    }

    /// A thread being fetched on demand: the topic, then the replies or the error.
    final class SharedThreadFetch: Sendable {
        private let state = Mutex<(topic: Int64, result: Result<[StoredItem], ThreadFetchError>?)?>(nil)

        func start(_ topic: Int64) { state.withLock { $0 = (topic, nil) } }

        func finish(_ topic: Int64, _ result: Result<[StoredItem], ThreadFetchError>) {
            state.withLock { if $0?.topic == topic { $0 = (topic, result) } }
        }

        /// The finished fetch, taken (nil while one is running or none is).
        func take() -> (topic: Int64, result: Result<[StoredItem], ThreadFetchError>)? {
            state.withLock { current in
                guard let found = current, let result = found.result else { return nil }
                current = nil
                return (found.topic, result)
            }
        }

        var running: Bool { state.withLock { $0 != nil && $0?.result == nil } }
    }

    /// The newest image fetched for an item page: its escape sequence and cells, or why not.
    final class SharedImageFetch: Sendable {
        private let state = Mutex<(ref: Int64, result: Result<ImageCells, ImageError>?)?>(nil)

        func start(_ ref: Int64) { state.withLock { $0 = (ref, nil) } }

        func finish(_ ref: Int64, _ result: Result<ImageCells, ImageError>) {
            state.withLock { if $0?.ref == ref { $0 = (ref, result) } }
        }

        /// The finished fetch for `ref`, if any.
        func result(for ref: Int64) -> Result<ImageCells, ImageError>? {
            state.withLock { $0?.ref == ref ? $0?.result : nil }
        }

        var running: Bool { state.withLock { $0 != nil && $0?.result == nil } }
    }

    /// An image ready to draw: the sequence and the cells it covers.
    struct ImageCells: Sendable {
        var sequence: String
        var columns: Int
        var rows: Int
    }

    /// What a background refresh has done so far.
    struct RefreshState {
        var running = false
        var finishedProviders = 0
        var providers = 0
        var newItems = 0
        var summary: String?
    }

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
            if shownImage != nil, images == .kitty { FileHandle.standardOutput.write(Data(KittyGraphics.deleteAll.utf8)) }
            screen.close()
            stop.forEach { $0.cancel() }
        }
        seenVersion = try session.dataVersion()
        try reloadItems()
        try updateCounts()
        draw()
        while true {
            let busy = refreshState.withLock { $0.running } || threadFetch.running || imageFetch.running
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
                if let page = model.page, case .failure(let error)? = imageFetch.result(for: page.stored.ref),
                    reportedImageError != page.stored.ref
                {
                    reportedImageError = page.stored.ref
                    model.message = "image not shown: \(error)"
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
            if images == .kitty { FileHandle.standardOutput.write(Data(KittyGraphics.deleteAll.utf8)) }
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

    // MARK: Keys

    /// Handles one key; false quits.
    func handle(_ key: String) throws -> Bool {
        if model.showingHelp {
            model.showingHelp = false
            return true
        }
        if let prompt = model.prompt { return try typeInPrompt(key, prompt) }
        if model.page != nil, let digit = key.first, key.count == 1, digit.isNumber {
            model.linkNumber += key
            return true
        }
        if model.page != nil, key == "enter", !model.linkNumber.isEmpty {
            openLink(Int(model.linkNumber) ?? 0)
            model.linkNumber = ""
            return true
        }
        model.linkNumber = ""
        guard let action = keys.action(for: key) else { return true }
        let rows = model.listRows(height: height)
        switch action {
        case .down: model.page != nil ? model.scrollPage(by: 1, height: height) : model.move(by: 1, height: height)
        case .up: model.page != nil ? model.scrollPage(by: -1, height: height) : model.move(by: -1, height: height)
        case .pageDown: model.page != nil ? model.scrollPage(by: height / 2, height: height) : model.move(by: rows / 2, height: height)
        case .pageUp: model.page != nil ? model.scrollPage(by: -height / 2, height: height) : model.move(by: -rows / 2, height: height)
        case .top:
            model.page != nil ? model.scrollPage(by: -Int.max / 2, height: height) : model.move(by: -model.items.count, height: height)
        case .bottom:
            if model.page == nil, nextCursor != nil, model.search == nil { try loadRest() }
            model.page != nil ? model.scrollPage(by: Int.max / 2, height: height) : model.move(by: model.items.count, height: height)
        case .open: if model.page == nil { try openSelected() }
        case .back:
            if model.page != nil {
                model.page = nil
            } else if model.search != nil || model.filter != nil {
                model.search = nil
                model.filter = nil
                model.filterError = nil
                try reloadItems()
            } else if key == "esc" {
                // Esc backs out of things; leaving the reader takes q, so a stray Esc
                // (after a filter error, a second press) never quits.
                model.filterError = nil
                model.message = "\(keys.bindings[.back]?.first { $0 != "esc" } ?? "q") quits"
            } else {
                return false
            }
        case .nextTab, .previousTab:
            guard model.page == nil, !model.tabs.isEmpty else { return true }
            model.currentTab = (model.currentTab + (action == .nextTab ? 1 : model.tabs.count - 1)) % model.tabs.count
            model.selection = 0
            model.top = 0
            try reloadItems()
        case .search: if model.page == nil { model.prompt = (.search, model.search ?? "") }
        case .filter: if model.page == nil { model.prompt = (.filter, model.filter ?? "") }
        case .toggleRead: try toggleRead()
        case .toggleSaved: try toggleSaved()
        case .markTabRead:
            let marked = try session.markRead(tab: currentTab, filter: model.filter)
            model.message = "marked \(marked) read"
            try reloadItems()
            try updateCounts()
        case .openBrowser: if let url = currentItem?.item.url { openInBrowser(url) }
        case .copyURL: if let url = currentItem?.item.url { copy(url) }
        case .refresh: startRefresh()
        case .help: model.showingHelp = true
        }
        if model.page == nil, model.selection >= model.items.count - 5, nextCursor != nil, model.search == nil { try loadMore() }
        return true
    }

    var currentItem: StoredItem? { model.page?.stored ?? model.selected }

    /// Typing into the search or filter prompt.
    func typeInPrompt(_ key: String, _ prompt: (kind: ReaderModel.PromptKind, text: String)) throws -> Bool {
        switch key {
        case "esc": model.prompt = nil
        case "enter":
            model.prompt = nil
            let text = prompt.text.trimmingCharacters(in: .whitespaces)
            if prompt.kind == .search {
                model.search = text.isEmpty ? nil : text
                model.selection = 0
                try reloadItems()
            } else if text.isEmpty {
                model.filter = nil
                model.filterError = nil
                try reloadItems()
            } else {
                do {
                    _ = try session.query(for: currentTab, filter: text)
                    model.filter = text
                    model.filterError = nil
                    model.selection = 0
                    try reloadItems()
                } catch ItemSelection.Failure.invalidFilter(let error) {
                    // Shown under the list with its caret, as the CLI prints it.
                    model.filterError = "\(error)"
                }
            }
        case "backspace": model.prompt = (prompt.kind, String(prompt.text.dropLast()))
        // The line-editing keys of a shell: Ctrl-U clears the line, Ctrl-W the last word.
        case "ctrl-u": model.prompt = (prompt.kind, "")
        case "ctrl-w":
            var text = prompt.text
            while text.last?.isWhitespace == true { text.removeLast() }
            while let last = text.last, !last.isWhitespace { text.removeLast() }
            model.prompt = (prompt.kind, text)
        case "space": model.prompt = (prompt.kind, prompt.text + " ")
        default:
            if key.count == 1 { model.prompt = (prompt.kind, prompt.text + key) }
        }
        return true
    }

    // MARK: Library calls

    /// The tab on screen.
    var currentTab: TimelineTab { model.tabs.indices.contains(model.currentTab) ? model.tabs[model.currentTab].tab : .all }

    /// A page of the tab on screen with the search and filter in force.
    func page(limit: Int, after cursor: TimelineCursor? = nil) throws -> TimelinePage {
        try session.page(.init(tab: currentTab, filter: model.filter, search: model.search, cursor: cursor, limit: limit))
    }

    func reloadItems() throws {
        let page = try page(limit: model.search != nil ? 500 : max(Self.pageSize, model.items.count))
        nextCursor = page.nextCursor
        model.moreToLoad = nextCursor != nil
        model.replaceItems(page.items, height: height)
    }

    /// Loads everything after what is loaded, so the end (`G`) is the tab's real end.
    func loadRest() throws {
        let page = try page(limit: Int.max, after: nextCursor)
        nextCursor = nil
        model.moreToLoad = false
        model.items += page.items
    }

    func loadMore() throws {
        let page = try page(limit: Self.pageSize, after: nextCursor)
        nextCursor = page.nextCursor
        model.moreToLoad = nextCursor != nil
        model.items += page.items
    }

    func updateCounts() throws {
        let counts = try session.unreadCounts(of: model.tabs.map(\.tab))
        for index in model.tabs.indices { model.tabs[index].unread = counts[model.tabs[index].tab] ?? 0 }
    }

    /// Reloads the list, the open item and the counts when any process wrote since they
    /// were read.
    func followOtherWriters() throws {
        let version = try session.dataVersion()
        guard version != seenVersion else { return }
        seenVersion = version
        try reloadItems()
        if let open = model.page?.stored, let fresh = model.items.first(where: { $0.ref == open.ref }) { model.page?.stored = fresh }
        try updateCounts()
    }

    /// Opens the selected item: marks it read, lays out its text and stored thread.
    func openSelected() throws {
        guard var stored = model.selected else { return }
        if stored.readAt == nil {
            try session.setRead([stored.ref], true)
            stored.readAt = Date()
            model.items[model.selection] = stored
            countsStale = true
        }
        let thread = try session.thread(of: stored)
        var note = thread.isEmpty && stored.item.kind == .topic ? "no replies stored" : nil
        if thread.isEmpty, let counted = stored.item.metrics.replies ?? stored.item.metrics.comments, counted > 0,
            let reason = session.whyThreadIsUnavailable(stored)
        {
            let replies = Metrics.phrase("\(counted)", counting: counted, "replies")
            note = TerminalText.sanitize("\(replies) counted upstream, none stored: \(reason)")
        }
        // Replies no configured section brings are fetched through the provider.
        if session.threadCanBeFetched(stored, storedReplies: thread.count) {
            startThreadFetch(stored)
            note = "fetching replies…"
        }
        layOutPage(stored, thread: thread, note: note)
    }

    func layOutPage(_ stored: StoredItem, thread: [StoredItem], note: String?) {
        let layout = ReaderLayout(width: screen?.width ?? 80, height: height, now: Date())
        let top = model.page?.stored.ref == stored.ref ? model.page?.top ?? 0 : 0
        let imageRows = images != nil && stored.item.image.map(WebURL.isHTTP) == true ? max(4, min(16, (height - 1) / 2)) : 0
        model.page = layout.page(stored, thread: thread, threadNote: note, imageRows: imageRows)
        model.page?.top = top
        if let area = model.page?.imageArea, imageFetch.result(for: stored.ref) == nil, !imageFetch.running {
            startImageFetch(stored, area: area)
        }
    }

    /// Fetches, decodes and encodes `stored`'s image in the background for `area`.
    func startImageFetch(_ stored: StoredItem, area: ImageArea) {
        guard let images, let url = stored.item.image, let cell = screen?.cellPixels else { return }
        imageFetch.start(stored.ref)
        let fetch = imageFetch
        let http = session.http
        Task.detached {
            do {
                let response = try await http.send(
                    HTTPRequest(url: url, headers: [("Accept", "image/png, image/jpeg, image/gif, image/webp")]))
                guard response.status == 200 else {
                    throw ImageError("HTTP \(response.status) from \(SecretRedactor.redact(url: url))")
                }
                let image = try PixelImage.decode(response.body)
                let cells = image.cells(fitting: area.columns, area.rows, cell: cell)
                let sequence = images.sequence(for: image, columns: cells.columns, rows: cells.rows, cell: cell)
                fetch.finish(stored.ref, .success(ImageCells(sequence: sequence, columns: cells.columns, rows: cells.rows)))
            } catch let error as ImageError {
                fetch.finish(stored.ref, .failure(error))
            } catch {
                fetch.finish(stored.ref, .failure(ImageError(TerminalText.sanitize("\(error)"))))
            }
        }
    }

    /// Starts fetching `topic`'s thread through its provider in the background.
    func startThreadFetch(_ topic: StoredItem) {
        threadFetch.start(topic.ref)
        let fetch = threadFetch
        let session = session
        Task.detached {
            do {
                fetch.finish(topic.ref, .success(try await session.fetchThread(of: topic)))
            } catch {
                fetch.finish(topic.ref, .failure(error as? ThreadFetchError ?? ThreadFetchError("\(error)")))
            }
        }
    }

    /// Shows a fetched thread when its item is still open.
    func followThreadFetch() throws {
        guard let (topic, result) = threadFetch.take(), let page = model.page, page.stored.ref == topic else { return }
        switch result {
        case .success(let thread):
            layOutPage(page.stored, thread: thread, note: thread.isEmpty ? "no replies" : nil)
        case .failure(let error):
            let stored = try session.thread(of: page.stored)
            layOutPage(page.stored, thread: stored, note: TerminalText.sanitize("replies not fetched: \(error)"))
        }
    }

    func toggleRead() throws {
        guard var stored = currentItem else { return }
        let read = stored.readAt == nil
        try session.setRead([stored.ref], read)
        stored.readAt = read ? Date() : nil
        replace(stored)
        model.message = read ? "marked read" : "marked unread"
        countsStale = true
    }

    func toggleSaved() throws {
        guard var stored = currentItem else { return }
        let saved = stored.savedAt == nil
        try session.setSaved([stored.ref], saved)
        stored.savedAt = saved ? Date() : nil
        replace(stored)
        model.message = saved ? "saved" : "unsaved"
    }

    func replace(_ stored: StoredItem) {
        if let index = model.items.firstIndex(where: { $0.ref == stored.ref }) { model.items[index] = stored }
        if model.page?.stored.ref == stored.ref { model.page?.stored = stored }
    }

    func openLink(_ number: Int) {
        guard let links = model.page?.links, links.indices.contains(number - 1) else {
            model.message = "no link \(number)"
            return
        }
        openInBrowser(links[number - 1])
    }

    /// `$BROWSER` (else xdg-open) in the background, without a shell.
    func openInBrowser(_ url: String) {
        let browser = environment["BROWSER"].flatMap { $0.isEmpty ? nil : $0 } ?? "xdg-open"
        guard WebURL.isHTTP(url) || url.hasPrefix("mailto:") else {
            model.message = "not a web link"
            return
        }
        let argv = browser.split(separator: " ").map(String.init) + [url]
        let runner = CommandRunner(argv: argv, environment: environment, timeoutSeconds: 60, maxOutputBytes: 1 << 20)
        let path = environment["PATH"]
        Task.detached { _ = try? await runner.run(searchPath: path) }
        model.message = "opened \(TerminalText.sanitize(url))"
    }

    /// Copies through OSC 52, which terminals (and tmux with set-clipboard) honour, over SSH too.
    func copy(_ text: String) {
        let sequence = "\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}"
        FileHandle.standardOutput.write(Data(sequence.utf8))
        model.message = "copied \(TerminalText.sanitize(text))"
    }

    /// `R`: every enabled provider, in the background, with live progress.
    func startRefresh() {
        let session = session
        let enabled = session.configuration.providers.filter(\.enabled).count
        let alreadyRunning = refreshState.withLock { state in
            if state.running { return true }
            state = RefreshState(running: true, providers: enabled)
            return false
        }
        guard !alreadyRunning else { return }
        let state = refreshState
        Task.detached {
            // The reader's refresh is the CLI's: every enabled provider, then retention.
            let summary = try? await session.refresh(force: true) { event in
                if case .finished(let outcome) = event {
                    state.withLock {
                        $0.finishedProviders += 1
                        $0.newItems += outcome.result.new
                    }
                }
            }
            state.withLock {
                $0.running = false
                $0.summary = summary?.line ?? "refresh failed"
            }
        }
    }

    /// Shows refresh progress; reloads when it is done.
    func followRefresh() throws {
        let state = refreshState.withLock { $0 }
        if state.running {
            model.progress = "refreshing \(state.finishedProviders)/\(state.providers), \(state.newItems) new"
        } else if let summary = state.summary {
            refreshState.withLock { $0.summary = nil }
            model.progress = nil
            model.message = summary
            seenVersion = try session.dataVersion()
            try reloadItems()
            try updateCounts()
        }
    }

    /// SIGINT, SIGTERM and SIGHUP restore the terminal, then end the process.
    static func restoreOnSignals(_ screen: CursesScreen) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                screen.close()
                exit(128 + number)
            }
            source.resume()
            return source
        }
    }
}
