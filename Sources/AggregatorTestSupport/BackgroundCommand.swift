import Foundation

/// A long-running `aggr` (watch, serve) started in the background: its standard error read
/// as it comes, signals sent to it, and its end awaited with a time limit.
public final class BackgroundCommand: @unchecked Sendable {
    private let process: Process
    private let errorText = GrowingBuffer()
    private let reader: Thread

    /// Starts `binary arguments…` in `directory` with `environment`.
    public init(binary: String, arguments: [String], directory: String, environment: [String: String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let handle = stderr.fileHandleForReading
        let buffer = errorText
        reader = Thread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
            }
        }
        try process.run()
        reader.start()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    public var pid: Int32 { process.processIdentifier }

    /// What it has written to standard error so far.
    public var stderr: String { errorText.text }

    public var isRunning: Bool { process.isRunning }

    /// Sends `signal` (SIGTERM, SIGINT…).
    public func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits up to `timeout` seconds for `condition`; whether it became true.
    @discardableResult
    public static func waitUntil(timeout: TimeInterval, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            usleep(50_000)
        }
        return try condition()
    }

    /// Waits until its standard error contains `text`; whether it did within `timeout`.
    @discardableResult
    public func waitForOutput(_ text: String, timeout: TimeInterval = 30) -> Bool {
        Self.waitUntil(timeout: timeout) { stderr.contains(text) }
    }

    /// Waits for it to exit; its exit status, or nil when it was still running after
    /// `timeout` seconds (it is then killed).
    public func waitForExit(timeout: TimeInterval = 30) -> Int32? {
        guard Self.waitUntil(timeout: timeout, { !process.isRunning }) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        // Let the reader take the last bytes.
        Self.waitUntil(timeout: 2) { reader.isFinished }
        return process.terminationStatus
    }
}

/// Bytes appended by a reader thread and read by the test.
final class GrowingBuffer: @unchecked Sendable {
    // Invariant: `data` is only touched while holding `lock`.
    private let lock = NSLock()
    private var data = Data()

    func append(_ chunk: Data) {
        lock.withLock { data.append(chunk) }
    }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
