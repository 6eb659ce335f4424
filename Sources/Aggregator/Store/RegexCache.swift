import Foundation
import GRDB

/// Compiled regular expressions behind the `regexp(pattern, value)` SQL function that
/// filters use; a pattern is compiled once per process, not once per row.
final class RegexCache: @unchecked Sendable {
    // Invariant: `compiled` is only touched while holding `lock`; NSRegularExpression is
    // immutable after creation and safe to use from several threads.
    private let lock = NSLock()
    private var compiled: [String: NSRegularExpression] = [:]

    static let shared = RegexCache()

    /// Whether `value` matches `pattern` (an invalid pattern matches nothing).
    func matches(_ pattern: String, _ value: String) -> Bool {
        let expression: NSRegularExpression? = lock.withLock {
            if let cached = compiled[pattern] { return cached }
            let created = try? NSRegularExpression(pattern: pattern)
            if let created, compiled.count < 1_000 { compiled[pattern] = created }
            return created
        }
        guard let expression else { return false }
        return expression.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil
    }

    /// The SQL function `regexp(pattern, value)`, also used by `value REGEXP pattern`.
    static let function = DatabaseFunction("regexp", argumentCount: 2, pure: true) { values in
        guard let pattern = String.fromDatabaseValue(values[0]), let value = String.fromDatabaseValue(values[1]) else { return false }
        return RegexCache.shared.matches(pattern, value)
    }
}
