import Aggregator
import Foundation
import Synchronization

/// The reader's full text: the item's page read in the background for its article, which
/// then replaces the feed's text on the item page.
extension TerminalReader {
    /// A page being read: the item, then its article or why not.
    final class SharedFullTextRun: Sendable {
        private let state = Mutex<(ref: Int64, result: Result<Article, FullTextError>?)?>(nil)

        func start(_ ref: Int64) { state.withLock { $0 = (ref, nil) } }
        func finish(_ result: Result<Article, FullTextError>) { state.withLock { if $0 != nil { $0?.result = result } } }

        func take() -> (ref: Int64, result: Result<Article, FullTextError>)? {
            state.withLock { current in
                guard let found = current, let result = found.result else { return nil }
                current = nil
                return (found.ref, result)
            }
        }

        var running: Bool { state.withLock { $0 != nil && $0?.result == nil } }
    }

    /// Opens the item under the cursor (if on the list) and reads its page's article.
    func startFullText() throws {
        if model.page == nil { try openSelected() }
        guard let stored = model.page?.stored else { return }
        guard !fullTextRun.running else {
            model.message = localized("a page is still being read")
            return
        }
        fullTextRun.start(stored.ref)
        model.message = localized("reading the page…")
        let run = fullTextRun
        let session = session
        Task.detached {
            do {
                run.finish(.success(try await session.fullText(of: stored)))
            } catch {
                run.finish(.failure(error as? FullTextError ?? FullTextError("\(error)")))
            }
        }
    }

    /// Shows a read article on its item's page, when that page is still open.
    func followFullText() throws {
        guard let (ref, result) = fullTextRun.take() else { return }
        switch result {
        case .success(let article):
            guard let page = model.page, page.stored.ref == ref else { return }
            var shown = page.stored
            shown.item.content = article.content
            layOutPage(shown, thread: try session.thread(of: page.stored), note: nil)
            model.message = TerminalText.sanitize(localized("full text") + (article.byline.map { " · " + localized("by \($0)") } ?? ""))
        case .failure(let error):
            model.message = TerminalText.sanitize(localized("full text not read: \(error)"))
        }
    }
}
