/// What every item goes through before it is stored, whoever produced it (a provider, an
/// import): the one place where credentials and terminal-hostile characters are removed, so
/// no output, export, feed or page downstream can carry them.
extension Item {
    /// The item with credentials redacted from its section key and URLs, and escape
    /// sequences, C0/C1 controls and bidi overrides removed from every field a person reads.
    public func preparedForStorage() -> Item {
        var item = self
        item.section = SecretRedactor.redact(url: section)
        // Click trackers (`utm_*`, `fbclid`…) are no part of where an item is.
        item.url = TrackingParameters.removed(from: SecretRedactor.redact(url: url))
        // By bytes: Foundation's `contains` bridges every id to NSString.
        if id.containsBytes("://") { item.id = SecretRedactor.redact(url: id) }
        item.image = image.map(SecretRedactor.redact(url:))
        item.title = Self.clean(title)
        item.summary = Self.clean(summary)
        if let content, TerminalText.hasControls(content) { item.content = TerminalText.sanitize(content, singleLine: false) }
        if let author {
            item.author = Author(name: Self.clean(author.name), url: author.url.map(SecretRedactor.redact(url:)))
        }
        if tags.contains(where: TerminalText.hasControls) { item.tags = tags.map(Self.clean) }
        if extra.values.contains(where: TerminalText.hasControls) { item.extra = extra.mapValues(Self.clean) }
        return item
    }

    private static func clean(_ text: String) -> String {
        TerminalText.hasControls(text) ? TerminalText.sanitize(text) : text
    }
}
