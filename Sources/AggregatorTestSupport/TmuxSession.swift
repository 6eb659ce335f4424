import Foundation

/// A real terminal for tests: a detached tmux session of fixed size running one command,
/// driven with `send-keys` and read with `capture-pane`, as a person would see it.
public final class TmuxSession: @unchecked Sendable {
    public let name: String
    /// The tmux server's socket, private to this session so tests never share a server.
    let socket: String

    /// Starts `command` (run by /bin/sh) in a `width`×`height` terminal with `environment`.
    public init(command: String, width: Int = 100, height: Int = 30, environment: [String: String], directory: String) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            throw TmuxError("tmux is not installed (scripts/bootstrap --test installs it)")
        }
        name = "aggr-\(UUID().uuidString.prefix(8))"
        socket = directory + "/\(name).sock"
        var arguments = ["-u", "-S", socket, "-f", "/dev/null", "new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)"]
        for (key, value) in environment.sorted(by: { $0.key < $1.key }) { arguments += ["-e", "\(key)=\(value)"] }
        arguments += ["-c", directory, command]
        // The server this starts would hold a captured stdout open forever: give it none.
        try Self.tmux(arguments, capture: false)
    }

    deinit {
        _ = try? Self.tmux(["-S", socket, "kill-server"], capture: false)
    }

    @discardableResult
    static func tmux(_ arguments: [String], capture: Bool = true) throws -> String {
        guard capture else { return try spawnQuietly(["/usr/bin/tmux"] + arguments) }
        return try ToolOutput.run("/usr/bin/tmux", arguments).text
    }

    /// Runs `argv` with /dev/null as its standard streams and nothing else open, and waits
    /// for it: `tmux new-session` forks a server that would hold any inherited descriptor
    /// (and Foundation's Process waits for those) forever.
    static func spawnQuietly(_ argv: [String]) throws -> String {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in Int32(0)...2 {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let arguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, argv[0], &actions, nil, arguments, environ)
        guard status == 0 else { throw TmuxError("cannot run \(argv[0]): \(String(cString: strerror(status)))") }
        var exit: Int32 = 0
        while waitpid(pid, &exit, 0) < 0, errno == EINTR {}
        return ""
    }

    /// Sends keys in tmux's names (`Enter`, `Escape`, `Tab`, `BTab`, `C-d`, `j`).
    public func send(_ keys: String...) throws {
        for key in keys { try Self.tmux(["-S", socket, "send-keys", "-t", name, key], capture: false) }
    }

    /// Types `text` literally.
    public func type(_ text: String) throws {
        try Self.tmux(["-S", socket, "send-keys", "-t", name, "-l", text], capture: false)
    }

    /// Opens a prompt with `key`, types `text` and presses Enter (a search, a filter).
    public func submit(_ key: String, _ text: String) throws {
        try send(key)
        try type(text)
        try send("Enter")
    }

    /// The screen as text, one line per row; with `attributes`, colours and attributes as
    /// SGR escape sequences.
    public func screen(attributes: Bool = false) throws -> String {
        try Self.tmux(["-S", socket, "capture-pane", "-t", name, "-p"] + (attributes ? ["-e"] : []))
    }

    /// Resizes the terminal.
    public func resize(width: Int, height: Int) throws {
        try Self.tmux(["-S", socket, "resize-window", "-t", name, "-x", "\(width)", "-y", "\(height)"], capture: false)
    }

    /// The pid of the pane's first process.
    public func panePID() throws -> Int32? {
        Int32(
            try Self.tmux(["-S", socket, "display-message", "-t", name, "-p", "#{pane_pid}"]).trimmingCharacters(
                in: .whitespacesAndNewlines))
    }

    /// Waits until the screen satisfies `condition`; the last screen seen.
    @discardableResult
    public func waitFor(timeout: TimeInterval = 10, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        repeat {
            last = try screen()
            if condition(last) { return last }
            usleep(50_000)
        } while Date() < deadline
        return last
    }

    /// Waits until the screen shows `text`.
    @discardableResult
    public func waitFor(_ text: String, timeout: TimeInterval = 10) throws -> String {
        try waitFor(timeout: timeout) { $0.contains(text) }
    }
}

/// tmux is missing or failed.
public struct TmuxError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
