import Foundation

/// Finds providers.json and the database the way the README documents.
public struct ConfigLocator: Sendable {
    public var environment: [String: String]
    public var workingDirectory: String

    public init(environment: [String: String], workingDirectory: String) {
        self.environment = environment
        self.workingDirectory = workingDirectory
    }

    /// The XDG config directory for aggr.
    public var configDirectory: String {
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "\(environment["HOME"] ?? NSHomeDirectory())/.config"
        return "\(base)/aggr"
    }

    /// The XDG data directory for aggr.
    public var dataDirectory: String {
        let base =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "\(environment["HOME"] ?? NSHomeDirectory())/.local/share"
        return "\(base)/aggr"
    }

    /// The places searched in order: `--config`, `$AGGR_CONFIG`, `./providers.json`, then the XDG file.
    public func candidates(explicit: String?) -> [String] {
        if let explicit { return [explicit] }
        if let fromEnvironment = environment["AGGR_CONFIG"], !fromEnvironment.isEmpty { return [fromEnvironment] }
        return ["\(workingDirectory)/providers.json", "\(configDirectory)/providers.json"]
    }

    /// The first existing config file, or nil when there is none.
    public func configPath(explicit: String?) -> String? {
        let list = candidates(explicit: explicit)
        if explicit != nil || list.count == 1 { return list[0] }
        return list.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// The database path: `--db`, then `$AGGR_DB`, then the XDG data directory.
    public func databasePath(explicit: String?) -> String {
        if let explicit { return explicit }
        if let fromEnvironment = environment["AGGR_DB"], !fromEnvironment.isEmpty { return fromEnvironment }
        return "\(dataDirectory)/aggr.sqlite"
    }
}
