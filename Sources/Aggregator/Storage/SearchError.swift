/// Search words the store refuses to look for.
public struct SearchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where in the words the problem is (a character offset).
    public var position: Int
    public var message: String

    public var description: String { localized("search: \(message) (at character \(position + 1))") }

    /// Throws when `text` holds a NUL, which SQLite's LIKE and C strings take as the end of
    /// the text: a search for it would match everything.
    package static func check(_ text: String) throws(SearchError) {
        if let index = text.firstIndex(of: "\u{0}") {
            throw SearchError(
                position: text.distance(from: text.startIndex, to: index), message: localized("a NUL character is not allowed"))
        }
    }
}
