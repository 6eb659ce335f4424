/// The display name in an RSS person field, which RSS 2.0 defines as an email address.
///
/// Feeds write `someone@example.com (张三)` or `张三 <someone@example.com>`; readers show the
/// name, as feedparser and miniflux do. A field without a name is kept as written.
enum PersonName {
    /// `张三` from `someone@example.com (张三)` or `张三 <someone@example.com>`; else the trimmed text.
    static func displayed(_ text: String) -> String {
        let field = text.trimmingWhitespace()
        if field.hasSuffix(")"), let open = field.firstIndex(of: "("), isAddress(field[..<open]) {
            let name = field[field.index(after: open)..<field.index(before: field.endIndex)].trimmingWhitespace()
            if !name.isEmpty { return name }
        }
        if field.hasSuffix(">"), let open = field.lastIndex(of: "<"),
            isAddress(field[field.index(after: open)..<field.index(before: field.endIndex)])
        {
            let name = field[..<open].trimmingWhitespace()
            let quoted = name.count > 1 && name.hasPrefix("\"") && name.hasSuffix("\"")
            if !name.isEmpty { return quoted ? String(name.dropFirst().dropLast()) : name }
        }
        return field
    }

    /// Whether `text` looks like one email address: no spaces, one `@` with text on both sides.
    private static func isAddress(_ text: Substring) -> Bool {
        let address = text.trimmingWhitespace()
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty && !address.contains(where: \.isWhitespace)
    }
}
