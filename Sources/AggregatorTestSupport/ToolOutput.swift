import Foundation

/// What a helper tool (curl, chromium, python3, tmux) printed and how it ended.
public struct ToolOutput: Sendable {
    public var status: Int32
    public var stdout: Data

    public var text: String { String(decoding: stdout, as: UTF8.self) }

    /// Runs `executable arguments…` to its end, standard error discarded.
    public static func run(_ executable: String, _ arguments: [String]) throws -> ToolOutput {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ToolOutput(status: process.terminationStatus, stdout: data)
    }
}
