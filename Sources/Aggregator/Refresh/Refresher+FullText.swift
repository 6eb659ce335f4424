import Foundation

/// `"full_text"` providers: new items' pages read for their articles during refresh.
extension Refresher {
    /// The most pages one section's refresh reads for full text (the rest come next time).
    static let fullTextPerSection = 20

    /// Reads the article of each of `items` that has none kept yet, four at a time; a page
    /// that fails is logged and left for the next refresh, never failing the section.
    func readFullText(of items: [Item], entry: ProviderConfiguration, rule: FullTextRule) async {
        var pending: [StoredItem] = []
        for item in items where item.kind != .reply {
            guard pending.count < Self.fullTextPerSection else { break }
            guard let stored = try? store.item(provider: item.provider, id: item.id), (try? store.article(of: stored.ref)) == nil else {
                continue
            }
            pending.append(stored)
        }
        guard !pending.isEmpty else { return }
        let fetch = FullTextFetch(http: http, storage: store, now: now)
        let logger = logger
        await withTaskGroup(of: Void.self) { group in
            var next = pending.makeIterator()
            func start() {
                guard let stored = next.next() else { return }
                group.addTask {
                    do {
                        _ = try await fetch.article(for: stored, selector: rule.selector)
                    } catch {
                        logger.warning("\(entry.id): full text of item \(stored.ref): \(error)")
                    }
                }
            }
            for _ in 0..<4 { start() }
            for await _ in group { start() }
        }
    }
}
