import Foundation

/// Picks the language aggr speaks, from what Linux tools read (`LC_ALL`, `LC_MESSAGES`,
/// `LANG`), a browser's `Accept-Language`, the config's `"language"` or `--lang`.
///
/// Chinese in any region or script (`zh_CN.UTF-8`, `zh_TW`, `zh-Hant`, `zh_SG`) is
/// Simplified Chinese, the one Chinese catalog; a language without a catalog is English.
public enum Language {
    /// The catalog tag for a POSIX locale (`zh_CN.UTF-8@euro`) or a BCP 47 tag (`zh-Hans-CN`),
    /// among `available`; nil when none fits (`C`, `POSIX`, an unknown language).
    public static func match(_ locale: String, among available: Set<String>) -> String? {
        var tag = locale
        if let at = tag.firstIndex(of: "@") { tag = String(tag[..<at]) }
        if let dot = tag.firstIndex(of: ".") { tag = String(tag[..<dot]) }
        guard !tag.isEmpty, tag != "C", tag != "POSIX" else { return nil }
        // Not Foundation's replacingOccurrences: this runs at every start.
        tag = String(tag.map { $0 == "_" ? "-" : $0 })
        let lowered = tag.lowercased()
        if let exact = available.first(where: { $0.lowercased() == lowered }) { return exact }
        let primary = String(lowered.prefix { $0 != "-" })
        if primary == "zh", available.contains("zh-Hans") { return "zh-Hans" }
        return available.first { $0.lowercased() == primary || $0.lowercased().hasPrefix(primary + "-") }
    }

    /// The language of the environment, as gettext reads it: `LC_ALL`, then `LC_MESSAGES`,
    /// then `LANG` (the first set and non-empty decides, even when it is `C`); `LANGUAGE`'s
    /// list is honoured first when the locale is not `C`, as GNU gettext does.
    public static func fromEnvironment(_ environment: [String: String], among available: Set<String>) -> String? {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        guard let locale else { return nil }
        if let list = environment["LANGUAGE"], !list.isEmpty, locale != "C", locale != "POSIX" {
            for entry in list.split(separator: ":") {
                if let found = match(String(entry), among: available) { return found }
            }
        }
        return match(locale, among: available)
    }

    /// The best of `available` for an `Accept-Language` header, by its q-values; nil when the
    /// header names none of them.
    public static func fromAcceptLanguage(_ header: String, among available: Set<String>) -> String? {
        var choices: [(tag: String, quality: Double, order: Int)] = []
        for (order, part) in header.split(separator: ",").enumerated() {
            let pieces = part.split(separator: ";")
            guard let tag = pieces.first?.trimmingWhitespace(), !tag.isEmpty, tag != "*" else { continue }
            var quality = 1.0
            for parameter in pieces.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].trimmingWhitespace() == "q" {
                    quality = Double(pair[1].trimmingWhitespace()) ?? 0
                }
            }
            guard quality > 0, let found = match(tag, among: available) else { continue }
            choices.append((found, quality, order))
        }
        return choices.min { $0.quality != $1.quality ? $0.quality > $1.quality : $0.order < $1.order }?.tag
    }
}
