/// Makes upstream text safe to print on a terminal.
///
/// Titles and summaries come from other people's servers; an `ESC]8;;` hyperlink, an
/// `ESC[2J` clear-screen or a bidi override in one must print as harmless text, so every
/// escape sequence, C0/C1 control and bidi embedding/override/isolate is removed.
public enum TerminalText {
    /// `text` sanitized to one line and cut to at most `limit` characters, "…" marking a cut.
    public static func excerpt(_ text: String, limit: Int) -> String {
        let line = sanitize(text)
        return line.count > limit ? String(line.prefix(limit - 1)) + "…" : line
    }

    /// Whether `text` holds anything ``sanitize(_:singleLine:)`` removes besides white space.
    ///
    /// That is ESC and other C0 controls, DEL, C1 controls, bidi embeddings, overrides and
    /// isolates. One pass over the UTF-8 bytes, so clean text (nearly all of it) costs no copy.
    public static func hasControls(_ text: String) -> Bool {
        var utf8 = text.utf8.makeIterator()
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        while let byte = utf8.next() {
            switch byte {
            case 0x09, 0x0A, 0x0D: break
            case 0x00..<0x20, 0x7F: return true
            default: if endsC1OrBidi(byte, after: previous, beforePrevious) { return true }
            }
            beforePrevious = previous
            previous = byte
        }
        return false
    }

    /// `text` without escape sequences or control characters; with `singleLine`, line
    /// breaks and tabs become single spaces.
    public static func sanitize(_ text: String, singleLine: Bool = true) -> String {
        // Nearly every title is clean: one pass over its bytes instead of a copy by scalars
        // (a timeline of 50 rows spent 1.2M instructions here).
        isUnchanged(text, singleLine: singleLine) ? text : rebuilt(text, singleLine: singleLine)
    }

    /// ``sanitize(_:singleLine:)`` by scalars, for text that is not clean as it is.
    package static func rebuilt(_ text: String, singleLine: Bool) -> String {
        var output = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        var pendingSpace = false
        func emit(_ scalar: Unicode.Scalar) {
            if pendingSpace, !output.isEmpty { output.append(" ") }
            pendingSpace = false
            output.append(scalar)
        }
        while index < scalars.count {
            let scalar = scalars[index]
            let value = scalar.value
            index += 1
            switch value {
            case 0x1B:
                index = skipEscape(scalars, from: index)
            case 0x9B:
                index = skipControlSequence(scalars, from: index)
            case 0x90, 0x98, 0x9D, 0x9E, 0x9F:
                index = skipControlString(scalars, from: index)
            case 0x0A, 0x09, 0x0D, 0x0B, 0x0C:
                if singleLine || value != 0x0A {
                    pendingSpace = true
                } else {
                    pendingSpace = false
                    output.append("\n")
                }
            case 0x00..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069:
                continue
            case 0x20 where singleLine:
                pendingSpace = true
            default:
                emit(scalar)
            }
        }
        return String(output)
    }

    /// Whether ``sanitize(_:singleLine:)`` would give `text` back as it is: no control,
    /// DEL, C1 or bidi character, no white space but spaces (and line feeds when not
    /// `singleLine`), and on a single line no space first, last or after another.
    static func isUnchanged(_ text: String, singleLine: Bool) -> Bool {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for byte in text.utf8 {
            switch byte {
            case 0x0A where !singleLine: break
            case 0x00..<0x20, 0x7F: return false
            case 0x20 where singleLine && (previous == 0 || previous == 0x20): return false
            default: if endsC1OrBidi(byte, after: previous, beforePrevious) { return false }
            }
            beforePrevious = previous
            previous = byte
        }
        return !(singleLine && previous == 0x20)
    }

    /// Whether UTF-8 `byte`, after `previous` and `beforePrevious`, ends a C1 control or a
    /// bidi embedding, override or isolate.
    private static func endsC1OrBidi(_ byte: UInt8, after previous: UInt8, _ beforePrevious: UInt8) -> Bool {
        switch byte {
        // C1 controls are U+0080–U+009F: C2 80 … C2 9F.
        case 0x80...0x9F: previous == 0xC2
        // U+202A–U+202E: E2 80 AA … AE; U+2066–U+2069: E2 81 A6 … A9.
        case 0xAA...0xAE: previous == 0x80 && beforePrevious == 0xE2
        case 0xA6...0xA9: previous == 0x81 && beforePrevious == 0xE2
        default: false
        }
    }

    /// Skips what follows an ESC: a CSI, a control string, or one intermediate/final character.
    private static func skipEscape(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        guard start < scalars.count else { return start }
        switch scalars[start] {
        case "[": return skipControlSequence(scalars, from: start + 1)
        case "]", "P", "X", "^", "_": return skipControlString(scalars, from: start + 1)
        default:
            var index = start
            // nF sequences: intermediates 0x20–0x2F, then one final byte.
            while index < scalars.count, (0x20...0x2F).contains(scalars[index].value) { index += 1 }
            return index < scalars.count && (0x30...0x7E).contains(scalars[index].value) ? index + 1 : index
        }
    }

    /// Skips CSI parameters and intermediates up to and including the final byte.
    private static func skipControlSequence(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        var index = start
        while index < scalars.count {
            let value = scalars[index].value
            index += 1
            if (0x40...0x7E).contains(value) { return index }
            if !(0x20...0x3F).contains(value) { return index - 1 }
        }
        return index
    }

    /// Skips an OSC/DCS/APC/PM/SOS body up to BEL, ST (ESC \) or C1 ST.
    private static func skipControlString(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        var index = start
        while index < scalars.count {
            let value = scalars[index].value
            if value == 0x07 || value == 0x9C { return index + 1 }
            if value == 0x1B { return index + 1 < scalars.count && scalars[index + 1] == "\\" ? index + 2 : index + 1 }
            index += 1
        }
        return index
    }
}
