import Foundation

/// Text written in the user's editor (`$VISUAL`, `$EDITOR`, else `vi`) on a private
/// temporary file, for a reply composed in any front end.
public enum ExternalEditor {
    /// Why no text came back.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The text the user left in the file, one trailing newline (editors add it) removed.
    ///
    /// `around` runs the editor (a full-screen front end hands the terminal over in it).
    public static func compose(
        initial: String = "", environment: [String: String], around: (() -> Void) -> Void = { $0() }
    ) throws(Failure) -> String {
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let path = NSTemporaryDirectory() + "aggr-reply-\(getpid())-\(RandomToken.hex().prefix(8)).txt"
        guard FileManager.default.createFile(atPath: path, contents: Data(initial.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw Failure(description: localized("cannot write \(path) for the editor"))
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        var status: Int32 = -1
        around {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "\(editor) \"$1\"", "aggr-editor", path]
            process.environment = environment
            guard (try? process.run()) != nil else { return }
            process.waitUntilExit()
            status = process.terminationStatus
        }
        guard status == 0 else {
            throw Failure(description: localized("the editor (\(editor)) exited with status \(status): nothing was sent"))
        }
        var text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
