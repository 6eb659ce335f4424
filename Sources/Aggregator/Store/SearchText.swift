import Foundation

/// Prepares text for the full-text index and queries for it.
///
/// The index uses SQLite's `unicode61` tokenizer, which splits on spaces and punctuation
/// but would keep a whole run of Chinese or Japanese as one token. Runs of CJK characters
/// are therefore rewritten as overlapping bigrams ("数据库" → "数据 据库"), the usual
/// approach for unsegmented scripts: any two-character word matches, longer words match as
/// a phrase of bigrams. It indexes faster and smaller than the trigram tokenizer, and
/// queries on common Latin words stay selective.
package enum SearchText {
    /// Whether `scalar` belongs to a script written without spaces between words.
    package static func isUnsegmented(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x31F0...0x31FF,  // Hiragana, Katakana
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,  // CJK ideographs
            0x20000...0x2FFFF, 0xFF66...0xFF9F:  // extension B+, halfwidth katakana
            return true
        default:
            return false
        }
    }

    /// `text` with every CJK run rewritten as space-separated bigrams.
    package static func indexable(_ text: String) -> String {
        // Most text has no CJK run at all and is indexed as it is.
        // Every unsegmented scalar is at U+3040 or above: a lead byte of 0xE3 or more.
        guard text.utf8.contains(where: { $0 >= 0xE3 }), text.unicodeScalars.contains(where: isUnsegmented) else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count * 2)
        func append(_ scalar: Unicode.Scalar) { UTF8.encode(scalar) { output.append($0) } }
        var run: [Unicode.Scalar] = []
        func flush() {
            guard !run.isEmpty else { return }
            output.append(UInt8(ascii: " "))
            if run.count == 1 {
                append(run[0])
            } else {
                for index in 0..<(run.count - 1) {
                    if index > 0 { output.append(UInt8(ascii: " ")) }
                    append(run[index])
                    append(run[index + 1])
                }
            }
            output.append(UInt8(ascii: " "))
            run.removeAll(keepingCapacity: true)
        }
        for scalar in text.unicodeScalars {
            if isUnsegmented(scalar) {
                run.append(scalar)
            } else {
                flush()
                append(scalar)
            }
        }
        flush()
        return String(decoding: output, as: UTF8.self)
    }

    /// `text` without diacritics ("Café" → "Cafe"), as SQLite's `remove_diacritics 2` reads
    /// it: for an index that does not fold them itself (PostgreSQL's `simple` configuration).
    package static func withoutDiacritics(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0x80 }) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars
        where scalar.properties.generalCategory != .nonspacingMark || SearchText.isUnsegmented(scalar) {
            scalars.append(scalar)
        }
        return String(scalars).precomposedStringWithCanonicalMapping
    }

    /// An FTS5 MATCH expression requiring every word of `query`, each as a quoted phrase,
    /// or nil when a word cannot be matched through the index (a lone CJK character).
    package static func matchExpression(_ query: String) -> String? {
        let words = query.split(whereSeparator: \.isWhitespace)
        guard !words.isEmpty else { return nil }
        var phrases: [String] = []
        for word in words {
            let scalars = word.unicodeScalars
            if scalars.count == 1, let only = scalars.first, isUnsegmented(only) { return nil }
            let prepared = indexable(String(word)).split(separator: " ").joined(separator: " ")
            guard prepared.unicodeScalars.contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) else {
                continue
            }
            phrases.append("\"" + prepared.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
        }
        return phrases.isEmpty ? nil : phrases.joined(separator: " AND ")
    }
}
