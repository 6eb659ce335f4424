/// The few SGR styles aggr uses, emitted only when colour is on.
public enum TextStyle: String, Sendable {
    case bold = "1"
    case dim = "2"
    case cyan = "36"
    case yellow = "33"
    case red = "31"
    case green = "32"

    /// `text` wrapped in this style when `enabled`.
    public func apply(_ text: String, enabled: Bool) -> String {
        enabled ? "\u{1B}[\(rawValue)m\(text)\u{1B}[0m" : text
    }
}
