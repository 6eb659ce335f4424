import Foundation

/// Runs the built `aggr` binary the way a user would, capturing its output.
public struct CLIRunner: Sendable {
    /// What one run printed and how it ended.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        /// Whether the run was killed for outliving its time limit.
        public var timedOut = false
    }

    public var binary: String
    /// The environment each run gets (no inherited HOME/XDG, so the user's files are never touched).
    public var environment: [String: String]

    public init(binary: String = CLIRunner.locateBinary(), environment: [String: String]) {
        self.binary = binary
        self.environment = environment
    }

    /// The built `aggr`: `$AGGR_BINARY`, else next to the test bundle, else `.build/debug/aggr`.
    public static func locateBinary() -> String {
        if let explicit = ProcessInfo.processInfo.environment["AGGR_BINARY"] { return explicit }
        let bundleDirectory = Bundle.main.bundleURL.deletingLastPathComponent().path
        for directory in [Bundle.main.bundleURL.path, bundleDirectory] {
            let candidate = "\(directory)/aggr"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return SharedFixtures.repositoryRoot() + "/.build/debug/aggr"
    }

    /// Runs `aggr arguments…` in `directory`, feeding `input` on standard input; a run still
    /// going after `timeout` seconds is killed (a hang fails its test instead of the suite).
    public func run(
        _ arguments: [String], in directory: String? = nil, input: String? = nil, extraEnvironment: [String: String] = [:],
        timeout: TimeInterval = 120
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = environment.merging(extraEnvironment) { $1 }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let stdout = Pipe()
        let stderr = Pipe()
        let stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        // SIGKILL: a child spawned from a test thread inherits its blocked signals, and a
        // blocked SIGTERM would leave the hung process running.
        let watchdog = DispatchWorkItem { [process] in
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        // Read both pipes before waiting so a chatty child never blocks on a full pipe.
        let errorData = LockedData()
        let errorReader = Thread { errorData.set(stderr.fileHandleForReading.readDataToEndOfFile()) }
        errorReader.start()
        let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        while !errorData.isSet { usleep(1_000) }
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData.value, as: UTF8.self),
            timedOut: process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
    }
}

/// Data handed from a reader thread to the test thread.
final class LockedData: @unchecked Sendable {
    // Invariant: every access to `storage` and `done` holds `lock`.
    private let lock = NSLock()
    private var storage = Data()
    private var done = false

    func set(_ data: Data) {
        lock.lock()
        storage = data
        done = true
        lock.unlock()
    }

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return done
    }

    var value: Data {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
