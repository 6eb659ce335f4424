import Foundation

/// Turns Markdown (release notes, issue bodies) into plain text for summaries: headings,
/// emphasis, code marks, link and image syntax and list bullets are removed, text kept.
public enum MarkdownText {
    public static func plainText(_ markdown: String) -> String {
        var lines: [String] = []
        var inFence = false
        for rawLine in markdown.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false) {
            var line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("```") || line.hasPrefix("~~~") {
                inFence.toggle()
                continue
            }
            if !inFence {
                while line.hasPrefix("#") || line.hasPrefix(">") { line = String(line.dropFirst()).trimmingCharacters(in: .whitespaces) }
                for bullet in ["* ", "- ", "+ "] where line.hasPrefix(bullet) { line = String(line.dropFirst(2)) }
                line = stripInline(line)
            }
            lines.append(line)
        }
        return HTMLText.plainText(lines.joined(separator: "\n"))
    }

    /// `![alt](src)` → alt, `[text](url)` → text, and `**`, `__`, `` ` ``, `~~` marks dropped.
    static func stripInline(_ line: String) -> String {
        var output = ""
        var characters = Array(line)[...]
        while let character = characters.first {
            if character == "!" || character == "[", let close = linkEnd(characters.dropFirst(character == "!" ? 1 : 0)) {
                let start = characters.startIndex + (character == "!" ? 2 : 1)
                output += String(characters[start..<close.textEnd])
                characters = characters[close.end...]
                continue
            }
            if "*`~".contains(character) {
                characters = characters.dropFirst()
                continue
            }
            // `_` marks emphasis only at a word's edge; inside `client_id` it is text.
            if character == "_" {
                let before = output.last
                let after = characters.dropFirst().first
                let inWord = (before?.isLetter == true || before?.isNumber == true) && (after?.isLetter == true || after?.isNumber == true)
                if !inWord {
                    characters = characters.dropFirst()
                    continue
                }
            }
            output.append(character)
            characters = characters.dropFirst()
        }
        return output
    }

    /// For `[text](url)` at the start of `slice`: where the text ends and where the link ends.
    private static func linkEnd(_ slice: ArraySlice<Character>) -> (textEnd: Int, end: Int)? {
        guard slice.first == "[", let close = slice.firstIndex(of: "]"), close + 1 < slice.endIndex, slice[close + 1] == "(",
            let paren = slice[(close + 1)...].firstIndex(of: ")")
        else { return nil }
        return (close, paren + 1)
    }
}
