import Foundation

/// Notices edits of providers.json with one `stat` and loads them: what `aggr watch` and
/// `aggr serve` (with or without its scheduler) use to follow the file while they run.
public struct ConfigReloader: Sendable {
    /// How often a running front end looks at the file.
    public static let pollInterval: TimeInterval = 2

    public let path: String
    public let registry: ProviderRegistry
    /// The name the file goes by in messages (as the configuration's `file`).
    public let displayName: String
    private var fingerprint: ConfigFingerprint

    /// A reloader for the file at `path` as it is now.
    public init(path: String, registry: ProviderRegistry, displayName: String) {
        self.path = path
        self.registry = registry
        self.displayName = displayName
        fingerprint = ConfigFingerprint(path: path)
    }

    /// Whether the file changed since the last look (the look is not recorded).
    public var fileChanged: Bool { ConfigFingerprint(path: path) != fingerprint }

    /// The new configuration when the file changed and loads; a `ConfigError` when it changed
    /// and does not (the caller keeps the last good one); nil when it did not change.
    public mutating func reload() throws -> Configuration? {
        let current = ConfigFingerprint(path: path)
        guard current != fingerprint else { return nil }
        fingerprint = current
        return try ConfigLoader(registry: registry).load(path: path, displayName: displayName)
    }
}
