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

    public var description: String {
        "\(message) (column \(position + 1))\n  \(expression)\n  \(String(repeating: " ", count: DisplayWidth.of(String(expression.prefix(position)))))^"
    }
}
