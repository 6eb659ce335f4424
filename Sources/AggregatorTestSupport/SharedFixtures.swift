import Foundation

/// Real upstream payloads in `../shared/fixtures` (beside the repository), read in place.
public enum SharedFixtures {
    /// The fixtures folder, or nil when the checkout has no `../shared` beside it.
    public static func directory(file: StaticString = #filePath) -> String? {
        let root = URL(fileURLWithPath: "\(file)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = root.deletingLastPathComponent().appendingPathComponent("shared/fixtures").path
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
    public static func repositoryRoot(file: StaticString = #filePath) -> String {
        URL(fileURLWithPath: "\(file)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }
}
