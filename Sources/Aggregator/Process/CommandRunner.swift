import Foundation

/// Runs a command (an argv array, no shell) with only the given environment, a time limit
/// and an output limit, off Swift's cooperative pool: the exec provider type and
/// notification commands.
public struct CommandRunner: Sendable {
    /// What a command that ran to its end left.
    public struct Output: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        public var status: Int32
        public var stdout: [UInt8]
        public var stderr: [UInt8]
    }

    /// Why a command did not run to its end.
    public enum Failure: Error, Sendable, Equatable {
        case notFound(String)
        case timedOut(seconds: Int, stderr: String)
        case tooMuchOutput(limit: Int)
        case launch(String)
    }

    public var argv: [String]
    public var environment: [String: String]
    public var timeoutSeconds: Int
    public var maxOutputBytes: Int
    /// Bytes written to the command's standard input, which is then closed; nil gives it
    /// /dev/null.
    public var input: [UInt8]?

    public init(argv: [String], environment: [String: String], timeoutSeconds: Int, maxOutputBytes: Int, input: [UInt8]? = nil) {
        self.argv = argv
        self.environment = environment
        self.timeoutSeconds = timeoutSeconds
        self.maxOutputBytes = maxOutputBytes
        self.input = input
    }

    /// Where `name` is: an absolute path as is, else the first match on aggr's own PATH.
    public static func resolve(_ name: String, path: String?) -> String? {
        if name.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        for directory in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs the command, finding it on `searchPath` (aggr's own PATH when nil); throws
    /// ``Failure``.
    public func run(searchPath: String?) async throws -> Output {
        guard let executable = Self.resolve(argv[0], path: searchPath) else { throw Failure.notFound(argv[0]) }
        if input != nil { Self.ignoreBrokenPipes() }
        let child = try SpawnedChild(executable: executable, argv: argv, environment: environment, input: input != nil)
        if let input, let descriptor = child.stdin {
            // A command that never reads its input must not hold up the deadline: the writer
            // is a plain thread, and a closed pipe ends it (EPIPE, SIGPIPE being ignored).
            Thread {
                input.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                        if written < 0 && errno == EINTR { continue }
                        if written <= 0 { break }
                        offset += written
                    }
                }
                close(descriptor)
            }.start()
        }
        let timeout = timeoutSeconds
        let limit = maxOutputBytes
        return try await withCheckedThrowingContinuation { continuation in
            // Blocking calls on plain threads, off Swift's cooperative pool.
            let reaper = DispatchGroup()
            let deadline = DispatchTime.now() + .seconds(timeout)
            reaper.enter()
            Thread {
                child.wait()
                // The command is done: whatever it left running in its group goes too, so a
                // backgrounded grandchild neither holds the pipes open nor outlives the refresh.
                child.signalGroup(SIGKILL)
                reaper.leave()
            }.start()
            Thread {
                var collected = OutputReader(limit: limit).read(from: [child.stdout, child.stderr], until: deadline, child: child)
                // A command may close its output and go on running: the deadline still holds.
                if reaper.wait(timeout: deadline) == .timedOut {
                    collected.timedOut = true
                    child.signalGroup(SIGTERM)
                    if reaper.wait(timeout: .now() + OutputReader.grace) == .timedOut { child.signalGroup(SIGKILL) }
                    reaper.wait()
                }
                if collected.timedOut {
                    continuation.resume(
                        throwing: Failure.timedOut(seconds: timeout, stderr: String(decoding: collected.stderr, as: UTF8.self)))
                } else if collected.overflowed {
                    continuation.resume(throwing: Failure.tooMuchOutput(limit: limit))
                } else {
                    continuation.resume(
                        returning: Output(status: child.status, stdout: collected.stdout, stderr: collected.stderr))
                }
            }.start()
        }
    }
}

extension CommandRunner {
    /// Writing to a command that closed its input must fail with EPIPE, not end aggr.
    private static let brokenPipesIgnored: Void = { signal(SIGPIPE, SIG_IGN) }()

    static func ignoreBrokenPipes() { _ = brokenPipesIgnored }
}

/// A child process started with posix_spawn: no shell, an empty signal mask and default
/// signal dispositions (threads of aggr block signals, and children would inherit that),
/// stdin from /dev/null, and no descriptor of aggr's beyond stdout and stderr.
final class SpawnedChild: @unchecked Sendable {
    // Invariant: `exited` and `exitStatus` are only touched while holding `lock`; `pid` and
    // the descriptors are immutable.
    let pid: pid_t
    let stdout: Int32
    let stderr: Int32
    /// The write end of its standard input, when it was given a pipe.
    let stdin: Int32?
    private let lock = NSLock()
    private var exited = false
    private var exitStatus: Int32 = 0

    init(executable: String, argv: [String], environment: [String: String], input: Bool = false) throws {
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        var inputPipe: [Int32] = [-1, -1]
        guard pipe(&output) == 0, pipe(&errors) == 0, !input || pipe(&inputPipe) == 0 else {
            throw CommandRunner.Failure.launch(String(cString: strerror(errno)))
        }
        let descriptors = output + errors + (input ? inputPipe : [])
        // Close-on-exec, so a child that another thread spawns meanwhile never holds them.
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input {
            posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
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
        // Its own process group (id = its pid), so the deadline reaches everything it starts.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
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
        if input { close(inputPipe[0]) }
        guard status == 0 else {
            close(output[0])
            close(errors[0])
            if input { close(inputPipe[1]) }
            throw CommandRunner.Failure.launch(String(cString: strerror(status)))
        }
        pid = child
        stdout = output[0]
        stderr = errors[0]
        stdin = input ? inputPipe[1] : nil
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which Swift's Glibc module
    /// does not declare (it needs _GNU_SOURCE); nil on an older C library.
    static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let library = dlopen(nil, RTLD_NOW), let symbol = dlsym(library, "posix_spawn_file_actions_addclosefrom_np") else {
            return nil
        }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// The exit status, or 128 + the signal that ended it (valid once ``wait()`` returned).
    var status: Int32 { lock.withLock { exitStatus } }

    /// Sends `signal` to the child's whole process group.
    ///
    /// The group outlives the child while any member is left, and its id is not reused
    /// while it exists.
    func signalGroup(_ signal: Int32) {
        kill(-pid, signal)
    }

    /// Waits for the child to end and records its status.
    func wait() {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let signal = status & 0x7F
        lock.withLock {
            exited = true
            exitStatus = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        }
    }
}

/// Reads a child's standard output and error with poll(2) until both close or a deadline.
///
/// At the deadline the child's process group gets SIGTERM, then SIGKILL after a grace
/// period, and reading stops whether or not some descendant still holds a pipe.
struct OutputReader {
    /// How long the group has to exit after SIGTERM.
    static let grace: DispatchTimeInterval = .seconds(2)
    /// The most standard error kept (for messages).
    static let stderrLimit = 65_536

    var limit: Int

    struct Collected {
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        var overflowed = false
        var timedOut = false
    }

    func read(from descriptors: [Int32], until deadline: DispatchTime, child: SpawnedChild) -> Collected {
        var collected = Collected()
        var open = descriptors
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var killAt: DispatchTime?
        defer { descriptors.forEach { close($0) } }
        while !open.isEmpty {
            let now = DispatchTime.now()
            if killAt == nil, now >= deadline {
                collected.timedOut = true
                child.signalGroup(SIGTERM)
                killAt = now + Self.grace
            }
            if let killAt, now >= killAt {
                child.signalGroup(SIGKILL)
                break
            }
            let until = killAt ?? deadline
            let waitMillis = until > now ? Int32(min(1_000, (until.uptimeNanoseconds - now.uptimeNanoseconds) / 1_000_000 + 1)) : 0
            var polled = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polled, nfds_t(polled.count), waitMillis)
            if ready < 0 && errno != EINTR { break }
            guard ready > 0 else { continue }
            for entry in polled where entry.revents != 0 {
                let count = Foundation.read(entry.fd, &buffer, buffer.count)
                if count <= 0 {
                    open.removeAll { $0 == entry.fd }
                    continue
                }
                if entry.fd == descriptors[0] {
                    if collected.stdout.count + count > limit {
                        collected.overflowed = true
                        child.signalGroup(SIGKILL)
                        open.removeAll()
                        break
                    }
                    collected.stdout += buffer[0..<count]
                } else if collected.stderr.count < Self.stderrLimit {
                    collected.stderr += buffer[0..<min(count, Self.stderrLimit - collected.stderr.count)]
                }
            }
        }
        return collected
    }
}
