import Foundation
internal import GRDB

/// Compiled regular expressions behind the `regexp(pattern, value)` SQL function that
/// filters use; a pattern is compiled once per process, not once per row.
///
/// Patterns are ``LinearRegex``es: a match takes time linear in the text, so no upstream
/// title can stall a timeline whatever pattern a view or an exclude holds.
final class RegexCache: @unchecked Sendable {
    // Invariant: `compiled` is only touched while holding `lock`; a LinearRegex is an
    // immutable value.
    private let lock = NSLock()
    private var compiled: [String: LinearRegex] = [:]

    static let shared = RegexCache()

    /// Whether `value` matches `pattern` (an invalid pattern matches nothing).
    func matches(_ pattern: String, _ value: String) -> Bool {
        let expression: LinearRegex? = lock.withLock {
            if let cached = compiled[pattern] { return cached }
            let created = try? LinearRegex(pattern)
            if let created, compiled.count < 1_000 { compiled[pattern] = created }
            return created
        }
        return expression?.matches(value) ?? false
    }

    /// The SQL function `regexp(pattern, value)`, also used by `value REGEXP pattern`.
    static let function = DatabaseFunction("regexp", argumentCount: 2, pure: true) { values in
        guard let pattern = String.fromDatabaseValue(values[0]), let value = String.fromDatabaseValue(values[1]) else { return false }
        return RegexCache.shared.matches(pattern, value)
    }
}
