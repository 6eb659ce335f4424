/// Escapes text for XML 1.0 content and attributes, dropping characters XML cannot hold.
public enum XMLText {
    /// `text` escaped; `apostrophe` is how `'` is written (HTML 4 lacks `&apos;`).
    public static func escape(_ text: String, apostrophe: String = "&apos;") -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += apostrophe
            case "\t", "\n", "\r": output.unicodeScalars.append(scalar)
            default:
                // C0 controls, and U+FFFE/U+FFFF, are not allowed in XML 1.0 at all.
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
