/// A filter expression that does not parse or does not type-check, with the column at fault.
///
/// Printed as the message, then the expression with a caret under the column.
public struct FilterError: Error, Sendable, Equatable, CustomStringConvertible {
    public var expression: String
    /// Zero-based character offset of the fault.
    public var position: Int
    public var message: String

    public init(expression: String, position: Int, message: String) {
        self.expression = expression
        self.position = position
        self.message = message
    }

    /// The most characters of the expression shown on either side of the fault.
    static let context = 60

    public var description: String {
        // A long filter (a generated blocklist) is shown as the window around the fault, so
        // the caret stays on screen; newlines and tabs print as spaces to keep it aligned.
        let characters = Array(expression.map { $0 == "\n" || $0 == "\t" || $0 == "\r\n" ? " " : $0 })
        let start = max(0, position - Self.context)
        let end = min(characters.count, position + Self.context)
        let before = (start > 0 ? "…" : "") + String(characters[start..<min(position, characters.count)])
        let shown = before + String(characters[min(position, characters.count)..<end]) + (end < characters.count ? "…" : "")
        return localized("\(message) (column \(position + 1))\n  \(shown)\n  \(String(repeating: " ", count: DisplayWidth.of(before)))^")
    }
}
