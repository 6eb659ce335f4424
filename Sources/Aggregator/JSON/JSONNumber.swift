/// A JSON number kept exactly as far as it matters: integers keep every digit.
///
/// Upstream ids (Twitter-style snowflakes, GitHub's newer event ids) pass 2^53, where a
/// Double loses digits and prints as `1.2e+18`. An integer literal is kept as its digits;
/// any other number as a Double, written in its shortest form.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    /// The number as JSON text: an integer's exact digits, else the Double's shortest form
    /// (a whole Double below 10^15 without its ".0").
    public let description: String
    /// The value as a Double (approximate past 2^53).
    public let doubleValue: Double

    /// Parses a JSON number literal (already checked against JSON's grammar).
    init?(literal: String) {
        guard let value = Double(literal) else { return nil }
        let isInteger = !literal.contains { $0 == "." || $0 == "e" || $0 == "E" }
        if isInteger {
            // "-0" stays an integer zero; leading zeros are not JSON.
            self.init(text: literal == "-0" ? "0" : literal, value: value)
        } else {
            self.init(value)
        }
    }

    private init(text: String, value: Double) {
        description = text
        doubleValue = value
    }

    public init(_ value: Double) {
        self.init(text: value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value), value: value)
    }

    public init(_ value: Int) {
        self.init(text: String(value), value: Double(value))
    }

    public init(integerLiteral value: Int) { self.init(value) }
    public init(floatLiteral value: Double) { self.init(value) }

    /// The value as an Int when it is a whole number that fits exactly.
    public var intValue: Int? {
        if let exact = Int(description) { return exact }
        return nil
    }

    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool { lhs.description == rhs.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}
