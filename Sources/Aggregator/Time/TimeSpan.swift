/// A length of time written as in config and on the command line: `90s`, `30m`, `1h30m`, `2d`, `1w`.
public struct TimeSpan: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var seconds: Int

    public init(seconds: Int) {
        self.seconds = seconds
    }

    private static let units: [(Character, Int)] = [("w", 604_800), ("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)]

    /// Parses one or more `<number><unit>` groups; nil when the text is not a duration.
    public init?(parsing text: String) {
        var total = 0
        var number = ""
        var sawGroup = false
        for character in text {
            if character.isASCII, character.isNumber {
                number.append(character)
            } else if let unit = Self.units.first(where: { $0.0 == character }), let value = Int(number) {
                let (product, overflow) = value.multipliedReportingOverflow(by: unit.1)
                let (sum, sumOverflow) = total.addingReportingOverflow(product)
                guard !overflow, !sumOverflow else { return nil }
                total = sum
                number = ""
                sawGroup = true
            } else {
                return nil
            }
        }
        guard sawGroup, number.isEmpty else { return nil }
        self.seconds = total
    }

    /// The shortest exact form, such as `1h30m`.
    public var description: String {
        if seconds == 0 { return "0s" }
        var remaining = seconds
        var text = ""
        for (unit, size) in Self.units where remaining >= size {
            text += "\(remaining / size)\(unit)"
            remaining %= size
        }
        return text
    }

    public static func < (lhs: TimeSpan, rhs: TimeSpan) -> Bool { lhs.seconds < rhs.seconds }
}
