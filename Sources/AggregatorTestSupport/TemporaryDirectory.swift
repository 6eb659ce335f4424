import Foundation

/// A fresh directory under the system temp dir, removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    // Invariant: `path` is immutable; the directory is only removed in deinit.
    public let path: String

    public init(prefix: String = "aggr-test") {
        var base = NSTemporaryDirectory()
        while base.hasSuffix("/") { base.removeLast() }
        path = "\(base)/\(prefix)-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Writes `text` to `name` and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) -> String {
        let target = file(name)
        try! FileManager.default.createDirectory(
            atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: target, contents: Data(text.utf8))
        return target
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
