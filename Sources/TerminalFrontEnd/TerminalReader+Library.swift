import Aggregator
import Foundation

/// What the reader asks of the library: pages, counts, marks, threads, images, refreshes.
extension TerminalReader {
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

    /// Runs one of the reader's own writes, whose effect it shows itself: the list is not
    /// read again for it (after `G` it may hold a whole tab), unless another process had
    /// written since the reader last looked.
    @discardableResult
    func ownWrite<Result>(_ write: () throws -> Result) throws -> Result {
        let before = try session.dataVersion()
        let result = try write()
        if before == seenVersion { seenVersion = try session.dataVersion() }
        return result
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
            try ownWrite { try session.setRead([stored.ref], true) }
            stored.readAt = Date()
            model.items[model.selection] = stored
            countsStale = true
        }
        let thread = try session.thread(of: stored)
        var note = thread.isEmpty && stored.item.kind == .topic ? localized("no replies stored") : nil
        if thread.isEmpty, let counted = stored.item.metrics.replies ?? stored.item.metrics.comments, counted > 0,
            let reason = session.whyThreadIsUnavailable(stored)
        {
            let replies = Metrics.phrase("\(counted)", counting: counted, "replies")
            note = TerminalText.sanitize(localized("\(replies) counted upstream, none stored: \(reason)"))
        }
        // Replies no configured section brings are fetched through the provider.
        if session.threadCanBeFetched(stored, storedReplies: thread.count) {
            startThreadFetch(stored)
            note = localized("fetching replies…")
        }
        layOutPage(stored, thread: thread, note: note)
    }

    func layOutPage(_ stored: StoredItem, thread: [StoredItem], note: String?) {
        let layout = ReaderLayout(width: screen?.width ?? 80, height: height, now: Date())
        let top = model.page?.stored.ref == stored.ref ? model.page?.top ?? 0 : 0
        let imageRows = images != nil && stored.item.image.map(WebURL.isHTTP) == true ? max(4, min(16, (height - 1) / 2)) : 0
        let done = (try? ItemActions(session: session).states(of: [stored.ref])[stored.ref]) ?? nil
        model.page = layout.page(stored, thread: thread, threadNote: note, imageRows: imageRows, done: done ?? [])
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
                    // verbatim: an Accept header
                    HTTPRequest(url: url, headers: [("Accept", "image/png, image/jpeg, image/gif, image/webp")]))
                guard response.status == 200 else {
                    throw ImageError(localized("HTTP \(response.status) from \(SecretRedactor.redact(url: url))"))
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
            layOutPage(page.stored, thread: thread, note: thread.isEmpty ? localized("no replies") : nil)
        case .failure(let error):
            let stored = try session.thread(of: page.stored)
            layOutPage(page.stored, thread: stored, note: TerminalText.sanitize(localized("replies not fetched: \(error)")))
        }
    }

    func toggleRead() throws {
        guard var stored = currentItem else { return }
        let read = stored.readAt == nil
        try ownWrite { try session.setRead([stored.ref], read) }
        stored.readAt = read ? Date() : nil
        replace(stored)
        model.message = read ? localized("marked read") : localized("marked unread")
        countsStale = true
    }

    func toggleSaved() throws {
        guard var stored = currentItem else { return }
        let saved = stored.savedAt == nil
        try ownWrite { try session.setSaved([stored.ref], saved) }
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
            model.message = localized("no link \(number)")
            return
        }
        openInBrowser(links[number - 1])
    }

    /// `$BROWSER` (else xdg-open) in the background, without a shell.
    func openInBrowser(_ url: String) {
        let browser = environment["BROWSER"].flatMap { $0.isEmpty ? nil : $0 } ?? "xdg-open"
        guard WebURL.isHTTP(url) || url.hasPrefix("mailto:") else {
            model.message = localized("not a web link")
            return
        }
        let argv = browser.split(separator: " ").map(String.init) + [url]
        let runner = CommandRunner(argv: argv, environment: environment, timeoutSeconds: 60, maxOutputBytes: 1 << 20)
        let path = environment["PATH"]
        Task.detached { _ = try? await runner.run(searchPath: path) }
        model.message = localized("opened \(TerminalText.sanitize(url))")
    }

    /// Copies through OSC 52, which terminals (and tmux with set-clipboard) honour, over SSH too.
    func copy(_ text: String) {
        let sequence = "\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}"
        StandardStream.output.write(sequence)
        model.message = localized("copied \(TerminalText.sanitize(text))")
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
                $0.summary = summary?.line ?? localized("refresh failed")
            }
        }
    }

    /// Shows refresh progress; reloads when it is done.
    func followRefresh() throws {
        let state = refreshState.withLock { $0 }
        if state.running {
            model.progress = localized("refreshing \(state.finishedProviders)/\(state.providers), \(state.newItems) new")
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
