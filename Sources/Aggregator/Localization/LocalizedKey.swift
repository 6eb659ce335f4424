#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A message's catalog id and its arguments, written as a Swift string literal:
/// `localized("Refreshed \(count) sections")` looks up `"Refreshed %s sections"` and puts the
/// count where the translation has `%s` (or `%1$s`, when a translation reorders them).
///
/// A literal `%` is written `%%` in the id, as gettext's c-format has it.
public struct LocalizedKey: ExpressibleByStringInterpolation, Sendable, Equatable {
    /// The id in the catalog: the English text with `%s` for each interpolation.
    public var id: String
    /// The interpolated values, in order.
    public var arguments: [String]

    public init(stringLiteral value: String) {
        id = Self.escapingPercent(value)
        arguments = []
    }

    /// `text` with `%` doubled; most messages have none, and this runs for every message
    /// ArgumentParser's help asks for at start-up, so without Foundation.
    static func escapingPercent(_ text: String) -> String {
        guard hasPercent(text) else { return text }
        var output = ""
        output.reserveCapacity(text.utf8.count + 2)
        for character in text {
            if character == "%" { output += "%" }
            output.append(character)
        }
        return output
    }

    /// Whether `text` holds a `%`, found by `memchr` in its UTF-8 (the generic `contains`
    /// walked the view a byte at a time, ~20 instructions a byte).
    static func hasPercent(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let start = bytes.baseAddress else { return false }
            return memchr(start, Int32(UInt8(ascii: "%")), bytes.count) != nil
        }
    }

    public init(stringInterpolation: StringInterpolation) {
        id = stringInterpolation.id
        arguments = stringInterpolation.arguments
    }

    /// Builds the id and arguments from a literal's pieces.
    public struct StringInterpolation: StringInterpolationProtocol, Sendable {
        var id = ""
        var arguments: [String] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            id.reserveCapacity(literalCapacity + interpolationCount * 2)
        }

        public mutating func appendLiteral(_ literal: String) {
            id += LocalizedKey.escapingPercent(literal)
        }

        public mutating func appendInterpolation<Value>(_ value: Value) {
            id += "%s"
            arguments.append(String(describing: value))
        }

        /// A described value: its description called directly, without the dynamic casts
        /// `String(describing:)` makes (a start-up pays for each type's first cast).
        public mutating func appendInterpolation<Value: CustomStringConvertible>(_ value: Value) {
            id += "%s"
            arguments.append(value.description)
        }

        public mutating func appendInterpolation(_ value: String) {
            id += "%s"
            arguments.append(value)
        }
    }

    /// `template` (a translation of ``id``) with the arguments put in its `%s`/`%N$s`
    /// places; `%%` is a percent sign.
    public func filling(_ template: String) -> String {
        guard Self.hasPercent(template) else { return template }
        var output = ""
        var next = 0
        var scalars = template.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "%" else {
                output.unicodeScalars.append(scalar)
                continue
            }
            if scalars.first == "%" {
                scalars.removeFirst()
                output += "%"
                continue
            }
            var digits = ""
            var lookahead = scalars
            while let digit = lookahead.first, ("0"..."9").contains(digit) {
                digits.unicodeScalars.append(digit)
                lookahead.removeFirst()
            }
            var index = next
            if !digits.isEmpty, lookahead.first == "$", let position = Int(digits), position >= 1 {
                lookahead.removeFirst()
                index = position - 1
                scalars = lookahead
            } else {
                next += 1
            }
            // `%s` or `%d`: both take the argument as formatted by the code.
            if let conversion = scalars.first, conversion == "s" || conversion == "d" { scalars.removeFirst() }
            output += index < arguments.count ? arguments[index] : ""
        }
        return output
    }
}
