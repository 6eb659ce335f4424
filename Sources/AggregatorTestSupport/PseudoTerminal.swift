import Foundation

/// A child process on its own pseudo-terminal, for timing what it draws.
public final class PseudoTerminal {
    let master: Int32
    public let pid: pid_t
    let started: Date
    /// Everything the child has written so far.
    public private(set) var output: [UInt8] = []

    /// What one frame took: seconds from the start (or keypress) to its first and last byte.
    public struct Frame {
        public var firstByte: Double
        public var lastByte: Double
        public var bytes: Int
    }

    /// Starts `argv` with the slave side as its standard streams and controlling terminal.
    ///
    /// The size is given through LINES and COLUMNS, which ncurses reads before the ioctl.
    public init(argv: [String], environment extra: [String: String], rows: Int, columns: Int) throws {
        master = Self.libc.openpt(O_RDWR | O_NOCTTY)
        var name = [CChar](repeating: 0, count: 128)
        guard master >= 0, Self.libc.grant(master) == 0, Self.libc.unlock(master) == 0, Self.libc.name(master, &name, name.count) == 0
        else {
            throw PseudoTerminalError("no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let slave = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addclose(&actions, master)
        posix_spawn_file_actions_addopen(&actions, 0, slave, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A new session: the terminal opened first becomes its controlling terminal.
        posix_spawnattr_setflags(&attributes, Self.spawnNewSession)
        var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        environment["LINES"] = String(rows)
        environment["COLUMNS"] = String(columns)
        environment.removeValue(forKey: "NO_COLOR")
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        let args = argv.map { strdup($0) } + [nil]
        defer {
            envp.forEach { free($0) }
            args.forEach { free($0) }
        }
        var child: pid_t = 0
        started = Date()
        let status = posix_spawn(&child, argv[0], &actions, &attributes, args, envp)
        guard status == 0 else { throw PseudoTerminalError("cannot start \(argv[0]): \(String(cString: strerror(status)))") }
        pid = child
    }

    /// glibc's POSIX_SPAWN_SETSID, which its headers only declare under _GNU_SOURCE.
    static let spawnNewSession: Int16 = 0x80

    /// The pseudo-terminal calls of libc, looked up at run time: Glibc's Swift module
    /// leaves them out (its headers declare them only under _XOPEN_SOURCE).
    static let libc = {
        let handle = dlopen(nil, RTLD_NOW)
        func function<T>(_ name: String, as type: T.Type) -> T {
            guard let symbol = dlsym(handle, name) else { fatalError("libc has no \(name)") }
            return unsafeBitCast(symbol, to: type)
        }
        return (
            openpt: function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self),
            grant: function("grantpt", as: (@convention(c) (Int32) -> Int32).self),
            unlock: function("unlockpt", as: (@convention(c) (Int32) -> Int32).self),
            name: function("ptsname_r", as: (@convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32).self)
        )
    }()

    /// Reads until the output has been quiet for `quietMilliseconds` (timing from `since`).
    public func frame(since: Date? = nil, quietMilliseconds: Int32, limit: TimeInterval = 30) throws -> Frame {
        let origin = since ?? started
        var frame = Frame(firstByte: 0, lastByte: 0, bytes: 0)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while Date().timeIntervalSince(origin) < limit {
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            // Before the first byte, wait as long as it takes; after it, until quiet.
            let ready = poll(&descriptor, 1, frame.bytes == 0 ? 1_000 : quietMilliseconds)
            if ready == 0 {
                if frame.bytes > 0 { return frame }
                continue
            }
            let got = read(master, &buffer, buffer.count)
            if got <= 0 { return frame }
            let now = Date().timeIntervalSince(origin)
            if frame.bytes == 0 { frame.firstByte = now }
            frame.lastByte = now
            frame.bytes += got
            output += buffer[0..<got]
        }
        throw PseudoTerminalError("no quiet frame within \(Int(limit)) s")
    }

    /// Reads until the output so far contains `text`; false at the deadline.
    public func waitFor(_ text: String, timeout: TimeInterval = 10) -> Bool {
        let needle = Array(text.utf8)
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !contains(needle) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(min(left, 1) * 1_000)) > 0 else { continue }
            let got = read(master, &buffer, buffer.count)
            if got <= 0 { return contains(needle) }
            output += buffer[0..<got]
        }
        return true
    }

    /// Whether the output so far contains `needle`.
    func contains(_ needle: [UInt8]) -> Bool {
        Data(output).range(of: Data(needle)) != nil
    }

    /// Types `keys` without waiting for anything.
    public func type(_ keys: String) {
        let bytes = Array(keys.utf8)
        _ = write(master, bytes, bytes.count)
    }

    /// Writes `keys` as typed and times the redraw they cause.
    public func press(_ keys: String, quietMilliseconds: Int32) throws -> Frame {
        let start = Date()
        let bytes = Array(keys.utf8)
        guard write(master, bytes, bytes.count) == bytes.count else { throw PseudoTerminalError("cannot type into the terminal") }
        return try frame(since: start, quietMilliseconds: quietMilliseconds)
    }

    /// Ends the child and closes the terminal.
    public func finish() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        // Keep draining so the child never blocks on a full terminal while exiting.
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if poll(&descriptor, 1, 50) > 0, read(master, &buffer, buffer.count) <= 0 { usleep(10_000) }
        }
        close(master)
    }
}

/// A pseudo-terminal that could not be set up or read.
public struct PseudoTerminalError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
