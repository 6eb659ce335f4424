/// A short, terminal-safe description of an error body: the `message`/`error` field of a
/// JSON body, else the start of its text.
public enum HTTPErrorExcerpt {
    public static func make(_ body: [UInt8], limit: Int = 160) -> String {
        let text = String(decoding: body.prefix(65_536), as: UTF8.self)
        if let value = try? JSONParser.parse(text, mode: .upstream) {
            for key in ["message", "error", "error_description", "msg"] {
                if let message = value[key]?.stringValue { return TerminalText.excerpt(message, limit: limit) }
            }
        }
        let plain = text.contains("<") ? HTMLText.plainText(text) : text
        return TerminalText.excerpt(plain, limit: limit)
    }
}
