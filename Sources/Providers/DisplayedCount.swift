/// A count as web pages print it: "28016", "1,024", "4.6K", "1.2k", "2.8W" / "2.8万" (万 = 10,000).
enum DisplayedCount {
    static func parse(_ text: String) -> Int? {
        let trimmed = text.replacingOccurrences(of: ",", with: "").trimmingWhitespace()
        guard let last = trimmed.last else { return nil }
        let scale: Double
        switch last {
        case "K", "k": scale = 1_000
        case "W", "w", "万": scale = 10_000
        default: return Int(trimmed)
        }
        // "9e99K" or "infW" on a page must not trap: only finite counts an Int holds.
        guard let value = Double(trimmed.dropLast()), value.isFinite, value >= 0 else { return nil }
        return Int(exactly: (value * scale).rounded())
    }
}
