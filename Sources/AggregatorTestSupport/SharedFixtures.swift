import Foundation

/// Real upstream payloads in `../shared/fixtures` (beside the repository), read in place.
public enum SharedFixtures {
    /// The fixtures folder, or nil when the checkout has no `../shared` beside it.
    public static func directory() -> String? {
        let path = URL(fileURLWithPath: repositoryRoot()).deletingLastPathComponent().appendingPathComponent("shared/fixtures").path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// The bytes of `relativePath` (such as `v2ex/v1-topics-hot-2019-06.json`), or nil with no shared folder.
    public static func bytes(_ relativePath: String) -> [UInt8]? {
        guard let directory = directory(), let data = FileManager.default.contents(atPath: "\(directory)/\(relativePath)") else {
            return nil
        }
        return [UInt8](data)
    }

    /// The repository root, for reading committed files such as providers.json.
    ///
    /// Worked out from this file's own place (Sources/AggregatorTestSupport/), never from the
    /// caller's, which may sit at any depth.
    public static func repositoryRoot() -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// The bytes of a fixture this repository commits, `Tests/aggrTests/Fixtures/<relativePath>`
    /// (such as `gitee/releases.json`); a missing file is an error naming its path.
    public static func own(_ relativePath: String) throws -> [UInt8] {
        let path = "\(repositoryRoot())/Tests/aggrTests/Fixtures/\(relativePath)"
        guard let data = FileManager.default.contents(atPath: path) else { throw CocoaError(.fileReadNoSuchFile, userInfo: ["path": path]) }
        return [UInt8](data)
    }
}
