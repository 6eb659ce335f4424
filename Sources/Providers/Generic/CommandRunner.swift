import Foundation

/// Runs a command (an argv array, no shell) with only the given environment, a time limit
/// and an output limit, off Swift's cooperative pool.
struct CommandRunner: Sendable {
    struct Output: Sendable {
        var status: Int32
        var stdout: [UInt8]
        var stderr: [UInt8]
    }

    enum Failure: Error, Sendable, Equatable {
        case notFound(String)
        case timedOut(seconds: Int, stderr: String)
        case tooMuchOutput(limit: Int)
        case launch(String)
    }

    var argv: [String]
    var environment: [String: String]
    var timeoutSeconds: Int
    var maxOutputBytes: Int

    /// Where `name` is: an absolute path as is, else the first match on aggr's own PATH.
    static func resolve(_ name: String, path: String?) -> String? {
        if name.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        for directory in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    func run(searchPath: String?) async throws -> Output {
        guard let executable = Self.resolve(argv[0], path: searchPath) else { throw Failure.notFound(argv[0]) }
        let child = try SpawnedChild(executable: executable, argv: argv, environment: environment)
        let collected = CollectedOutput(limit: maxOutputBytes)
        let timeout = timeoutSeconds
        let limit = maxOutputBytes
        return try await withCheckedThrowingContinuation { continuation in
            let readers = DispatchGroup()
            // Blocking reads on two plain threads: the pipes are drained as the child writes,
            // and a child that prints past the limit is killed at once.
            for (descriptor, isOutput) in [(child.stdout, true), (child.stderr, false)] {
                readers.enter()
                Thread {
                    var buffer = [UInt8](repeating: 0, count: 65_536)
                    while true {
                        let count = read(descriptor, &buffer, buffer.count)
                        if count <= 0 { break }
                        if !collected.append(Data(buffer[0..<count]), toStandardOutput: isOutput) { child.signal(SIGKILL) }
                    }
                    close(descriptor)
                    readers.leave()
                }.start()
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(timeout)) {
                guard !child.hasExited else { return }
                collected.markTimedOut()
                child.signal(SIGTERM)
                DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(2)) { child.signal(SIGKILL) }
            }
            Thread {
                let status = child.wait()
                readers.wait()
                let result = collected.snapshot()
                if collected.timedOut {
                    continuation.resume(
                        throwing: Failure.timedOut(seconds: timeout, stderr: String(decoding: result.stderr, as: UTF8.self)))
                } else if result.overflowed {
                    continuation.resume(throwing: Failure.tooMuchOutput(limit: limit))
                } else {
                    continuation.resume(returning: Output(status: status, stdout: result.stdout, stderr: result.stderr))
                }
            }.start()
        }
    }
}

/// A child process started with posix_spawn: no shell, an empty signal mask and default
/// signal dispositions (threads of aggr block signals, and children would inherit that),
/// stdin from /dev/null, and no descriptor of aggr's beyond stdout and stderr.
final class SpawnedChild: @unchecked Sendable {
    // Invariant: `exited` is only touched while holding `lock`; `pid` and the descriptors are immutable.
    let pid: pid_t
    let stdout: Int32
    let stderr: Int32
    private let lock = NSLock()
    private var exited = false

    init(executable: String, argv: [String], environment: [String: String]) throws {
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        guard pipe(&output) == 0, pipe(&errors) == 0 else { throw CommandRunner.Failure.launch(String(cString: strerror(errno))) }
        // Close-on-exec, so a child that another thread spawns meanwhile never holds them.
        for descriptor in output + errors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        // Nothing else of aggr's (the database, sockets, libcurl's wake-up pipe) reaches the child.
        _ = Self.closeFrom?(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let arguments = argv.map { strdup($0) } + [nil]
        let variables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            arguments.forEach { free($0) }
            variables.forEach { free($0) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, arguments, variables)
        close(output[1])
        close(errors[1])
        guard status == 0 else {
            close(output[0])
            close(errors[0])
            throw CommandRunner.Failure.launch(String(cString: strerror(status)))
        }
        pid = child
        stdout = output[0]
        stderr = errors[0]
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which Swift's Glibc module
    /// does not declare (it needs _GNU_SOURCE); nil on an older C library.
    static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let library = dlopen(nil, RTLD_NOW), let symbol = dlsym(library, "posix_spawn_file_actions_addclosefrom_np") else {
            return nil
        }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    var hasExited: Bool { lock.withLock { exited } }

    /// Sends `signal` unless the child was already reaped (its pid may belong to another).
    func signal(_ signal: Int32) {
        lock.withLock {
            if !exited { kill(pid, signal) }
        }
    }

    /// Waits for the child; its exit status, or 128 + the signal that ended it.
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        lock.withLock { exited = true }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}

/// Output gathered from a child's pipes on Foundation's reader threads.
final class CollectedOutput: @unchecked Sendable {
    // Invariant: every field is only touched while holding `lock`.
    private let lock = NSLock()
    private let limit: Int
    private var stdout: [UInt8] = []
    private var stderr: [UInt8] = []
    private var overflowed = false
    private var didTimeOut = false

    init(limit: Int) {
        self.limit = limit
    }

    /// Appends `data`; false once standard output passed the limit.
    func append(_ data: Data, toStandardOutput: Bool) -> Bool {
        lock.withLock {
            if toStandardOutput {
                guard !overflowed else { return false }
                if stdout.count + data.count > limit {
                    overflowed = true
                    return false
                }
                stdout += data
            } else if stderr.count < 65_536 {
                stderr += data.prefix(65_536 - stderr.count)
            }
            return true
        }
    }

    func markTimedOut() { lock.withLock { didTimeOut = true } }

    var timedOut: Bool { lock.withLock { didTimeOut } }

    func snapshot() -> (stdout: [UInt8], stderr: [UInt8], overflowed: Bool) {
        lock.withLock { (stdout, stderr, overflowed) }
    }
}
