import Aggregator
import Foundation
import Logging
import Synchronization

/// `aggr tui`: the merged timeline as an interactive reader in the terminal.
///
/// Parses keys into ``ReaderAction``s, calls the library (timeline pages, search, read and
/// saved state, refresh), and draws through ``ReaderLayout``. Every upstream string goes
/// through the terminal sanitizer before it is drawn.
public final class TerminalReader {
    /// Items loaded per page of the list (more load as the selection nears the end).
    static let pageSize = 200

    let configuration: Configuration
    let store: Store
    let registry: ProviderRegistry
    let environment: [String: String]
    let keys: ReaderKeys
    let color: Bool
    var model: ReaderModel
    var nextCursor: TimelineCursor?
    var latestRef: Int64 = 0
    let refreshState = SharedRefreshState()
    let threadFetch = SharedThreadFetch()
    /// One HTTP client for refreshes, threads and images, started on first use (loading
    /// libcurl and its thread costs milliseconds a keypress should not wait for).
    lazy var http = CurlHTTPClient()
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

    /// `images` draws items' images inline with that protocol (nil: never, the default).
    public init(
        configuration: Configuration, store: Store, registry: ProviderRegistry, environment: [String: String],
        images: InlineImageProtocol? = nil
    ) {
        self.images = images
        self.configuration = configuration
        self.store = store
        self.registry = registry
        self.environment = environment
        keys = configuration.keys
        color = environment["NO_COLOR"].map { $0.isEmpty } ?? true && environment["TERM"] != "dumb"
        model = ReaderModel(tabs: ReaderTab.all(in: configuration, now: Date()))
    }

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
        try reloadItems()
        try updateCounts()
        latestRef = try store.latestRef()
        draw()
        var idleRounds = 0
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
                idleRounds += 1
                try followRefresh()
                try followThreadFetch()
                if let page = model.page, case .failure(let error)? = imageFetch.result(for: page.stored.ref),
                    reportedImageError != page.stored.ref
                {
                    reportedImageError = page.stored.ref
                    model.message = "image not shown: \(error)"
                }
                // Every few seconds: items stored by another process (aggr watch) appear.
                if idleRounds % 5 == 0, try store.latestRef() != latestRef {
                    latestRef = try store.latestRef()
                    try reloadItems()
                    try updateCounts()
                }
            case .key(let name):
                idleRounds = 0
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
            var query = try currentQuery()
            query.limit = Int.max
            let marked = try store.markRead(matching: query)
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
                    _ = try FilterParser.parse(text)
                    model.filter = text
                    model.filterError = nil
                    model.selection = 0
                    try reloadItems()
                } catch {
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

    /// The current tab's query with the filter in force.
    func currentQuery() throws -> TimelineQuery {
        guard model.tabs.indices.contains(model.currentTab) else { return TimelineQuery() }
        var query = model.tabs[model.currentTab].query
        query.now = Date()
        if let filter = model.filter { query.filters.append(try FilterParser.parse(filter)) }
        return query
    }

    func reloadItems() throws {
        var query = try currentQuery()
        if let search = model.search {
            let found = try store.search(
                search, limit: 500, providers: query.providers, filters: query.filters, hiding: query.hiding, now: query.now)
            nextCursor = nil
            model.moreToLoad = false
            model.replaceItems(found, height: height)
            return
        }
        query.limit = max(Self.pageSize, model.items.count)
        let page = try store.timeline(query)
        nextCursor = page.nextCursor
        model.moreToLoad = nextCursor != nil
        model.replaceItems(page.items, height: height)
    }

    /// Loads everything after what is loaded, so the end (`G`) is the tab's real end.
    func loadRest() throws {
        var query = try currentQuery()
        query.limit = Int.max
        query.cursor = nextCursor
        let page = try store.timeline(query)
        nextCursor = nil
        model.moreToLoad = false
        model.items += page.items
    }

    func loadMore() throws {
        var query = try currentQuery()
        query.limit = Self.pageSize
        query.cursor = nextCursor
        let page = try store.timeline(query)
        nextCursor = page.nextCursor
        model.moreToLoad = nextCursor != nil
        model.items += page.items
    }

    func updateCounts() throws {
        for index in model.tabs.indices {
            var query = model.tabs[index].query
            query.unreadOnly = true
            query.now = Date()
            model.tabs[index].unread = try store.count(query, cap: 1_000)
        }
    }

    /// Opens the selected item: marks it read, lays out its text and stored thread.
    func openSelected() throws {
        guard var stored = model.selected else { return }
        if stored.readAt == nil {
            try store.markRead(refs: [stored.ref])
            stored.readAt = Date()
            model.items[model.selection] = stored
            countsStale = true
        }
        let thread = stored.item.kind == .reply ? [] : try store.thread(of: stored)
        var note = thread.isEmpty && stored.item.kind == .topic ? "no replies stored" : nil
        if thread.isEmpty, let counted = stored.item.metrics.replies ?? stored.item.metrics.comments, counted > 0,
            let reason = Refresher.whyThreadIsUnavailable(of: stored.item, configuration: configuration, registry: registry)
        {
            let replies = Metrics.phrase("\(counted)", counting: counted, "replies")
            note = TerminalText.sanitize("\(replies) counted upstream, none stored: \(reason)")
        }
        // Replies no configured section brings are fetched through the provider.
        if Refresher.threadLooksIncomplete(stored.item, storedReplies: thread.count), startThreadFetch(stored) {
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
        let http = http
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

    /// Starts fetching `topic`'s thread in the background; false when its provider has none.
    func startThreadFetch(_ topic: StoredItem) -> Bool {
        guard Refresher.canFetchThread(of: topic.item, configuration: configuration, registry: registry) else { return false }
        let refresher = makeRefresher()
        threadFetch.start(topic.ref)
        let fetch = threadFetch
        Task.detached {
            do {
                fetch.finish(topic.ref, .success(try await refresher.fetchThread(of: topic)))
            } catch {
                fetch.finish(topic.ref, .failure(error as? ThreadFetchError ?? ThreadFetchError("\(error)")))
            }
        }
        return true
    }

    /// Shows a fetched thread when its item is still open.
    func followThreadFetch() throws {
        guard let (topic, result) = threadFetch.take(), let page = model.page, page.stored.ref == topic else { return }
        switch result {
        case .success(let thread):
            layOutPage(page.stored, thread: thread, note: thread.isEmpty ? "no replies" : nil)
        case .failure(let error):
            let stored = try store.thread(of: page.stored)
            layOutPage(page.stored, thread: stored, note: TerminalText.sanitize("replies not fetched: \(error)"))
        }
    }

    func makeRefresher() -> Refresher {
        var logger = Logger(label: "aggr.tui")
        logger.logLevel = .critical
        return Refresher(
            configuration: configuration, registry: registry, store: store, http: http, environment: environment, logger: logger
        )
    }

    func toggleRead() throws {
        guard var stored = currentItem else { return }
        let read = stored.readAt == nil
        try store.markRead(refs: [stored.ref], read: read)
        stored.readAt = read ? Date() : nil
        replace(stored)
        model.message = read ? "marked read" : "marked unread"
        countsStale = true
    }

    func toggleSaved() throws {
        guard var stored = currentItem else { return }
        let saved = stored.savedAt == nil
        try store.markSaved(refs: [stored.ref], saved: saved)
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
        let alreadyRunning = refreshState.withLock { state in
            if state.running { return true }
            state = RefreshState(running: true, providers: configuration.providers.filter(\.enabled).count)
            return false
        }
        guard !alreadyRunning else { return }
        let refresher = makeRefresher()
        let state = refreshState
        Task.detached {
            let summary = try? await refresher.refresh(force: true) { event in
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
            latestRef = try store.latestRef()
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
