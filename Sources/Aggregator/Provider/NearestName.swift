/// Suggests the valid name closest to a misspelt one ("nod" → "node").
public enum NearestName {
    /// The closest of `candidates` within a small edit distance, or nil when none is close.
    public static func suggestion(for name: String, among candidates: [String]) -> String? {
        let limit = max(1, min(3, name.count / 3 + 1))
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(name.lowercased(), candidate.lowercased())
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// Levenshtein distance counted over characters.
    static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs)
        let b = Array(rhs)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
