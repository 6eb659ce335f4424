import Foundation

/// A throw-away PostgreSQL cluster for the tests: `initdb` in a temp folder, `pg_ctl` on a
/// free loopback port, one database per test, removed when the test process exits.
///
/// Run as root, the server runs as an unprivileged user (`postgres` from Debian's package,
/// else `nobody`), as PostgreSQL requires. Connections use a password (SCRAM), so the
/// tests see the same authentication a team server has. A cluster left by a test process
/// that died is stopped and removed by the next one.
public final class PostgresCluster: Sendable {
    /// The folder holding the data directory, the socket and the log.
    public let folder: String
    public let port: Int
    public let user = "aggr"
    public let password: String
    let binaries: String
    let runAs: String?

    /// The cluster of this test process, started on first use; nil (with why) when this
    /// machine has no PostgreSQL server binaries.
    public static let shared: Result<PostgresCluster, PostgresClusterError> = {
        do {
            let cluster = try PostgresCluster()
            atexit { PostgresCluster.stopShared() }
            return .success(cluster)
        } catch let error as PostgresClusterError {
            return .failure(error)
        } catch {
            return .failure(PostgresClusterError(message: "\(error)"))
        }
    }()

    private static func stopShared() {
        if case .success(let cluster) = shared { cluster.stop() }
    }

    /// The URL of a new, empty database on the cluster (password not in it: `environment`).
    public func createDatabase() throws -> String {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try run(binaries + "/createdb", ["-h", "127.0.0.1", "-p", "\(port)", "-U", user, String(name)], environment: environment)
        return url(database: String(name))
    }

    /// Everything the database at `url` (one of ``createDatabase()``'s) holds, as `pg_dump` writes it.
    public func dump(_ url: String) throws -> String {
        let database = String(url.split(separator: "/").last ?? "")
        return try run(binaries + "/pg_dump", ["-h", "127.0.0.1", "-p", "\(port)", "-U", user, database], environment: environment)
    }

    /// `postgres://aggr@127.0.0.1:PORT/DATABASE`.
    public func url(database: String) -> String { "postgres://\(user)@127.0.0.1:\(port)/\(database)" }

    /// What a client needs besides the URL: the password in `PGPASSWORD`.
    public var environment: [String: String] { ["PGPASSWORD": password] }

    init() throws {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let version = versions.compactMap(Int.init).max(),
            FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\(version)/bin/initdb")
        else {
            throw PostgresClusterError(message: "no PostgreSQL server here (install Debian's postgresql; scripts/bootstrap --test does)")
        }
        binaries = "/usr/lib/postgresql/\(version)/bin"
        Self.removeAbandoned()
        folder = NSTemporaryDirectory().replacingOccurrences(of: "//", with: "/") + "aggr-pg-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "\(getpid())".write(toFile: folder + "/owner.pid", atomically: true, encoding: .utf8)
        password = UUID().uuidString
        try password.write(toFile: folder + "/password", atomically: true, encoding: .utf8)
        let runAs: String?
        if getuid() == 0 {
            let candidates = ["postgres", "nobody"]
            guard let account = candidates.first(where: { getpwnam($0) != nil }) else {
                throw PostgresClusterError(message: "running as root and no unprivileged user (postgres, nobody) to run PostgreSQL as")
            }
            runAs = account
            let entry = getpwnam(account)!.pointee
            chown(folder, entry.pw_uid, entry.pw_gid)
            chown(folder + "/password", entry.pw_uid, entry.pw_gid)
        } else {
            runAs = nil
        }
        try Self.run(
            binaries + "/initdb",
            [
                "-D", folder + "/data", "-U", user, "--pwfile", folder + "/password", "--auth", "scram-sha-256", "-E", "UTF8",
                "--locale", "C.UTF-8", "--no-sync",
            ], as: runAs)
        var lastError: (any Error)?
        for _ in 0..<5 {
            let port = Self.freePort()
            do {
                try Self.run(
                    binaries + "/pg_ctl",
                    [
                        "-D", folder + "/data", "-l", folder + "/server.log", "-w", "-t", "30", "-o",
                        "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200",
                        "start",
                    ], as: runAs)
                self.runAs = runAs
                self.port = port
                return
            } catch {
                lastError = error
            }
        }
        throw lastError ?? PostgresClusterError(message: "could not start")
    }

    /// Stops the server at once and removes its folder.
    public func stop() {
        _ = try? run(binaries + "/pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Stops and removes clusters whose test process is gone.
    private static func removeAbandoned() {
        let base = NSTemporaryDirectory()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] where name.hasPrefix("aggr-pg-") {
            let folder = (base as NSString).appendingPathComponent(name)
            guard let text = try? String(contentsOfFile: folder + "/owner.pid", encoding: .utf8), let pid = Int32(text),
                kill(pid, 0) != 0
            else { continue }
            if let server = try? String(contentsOfFile: folder + "/data/postmaster.pid", encoding: .utf8),
                let line = server.split(separator: "\n").first, let serverPID = Int32(line)
            {
                kill(serverPID, SIGQUIT)
            }
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// A loopback port nothing listens on now.
    private static func freePort() -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs a PostgreSQL program (as ``runAs`` when root); its output goes to the error on failure.
    @discardableResult
    func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
        try Self.run(executable, arguments, as: runAs, environment: environment)
    }

    @discardableResult
    static func run(
        _ executable: String, _ arguments: [String], as runAs: String?, environment: [String: String] = [:]
    ) throws -> String {
        let (path, argv) =
            runAs.map { ("/usr/sbin/runuser", ["runuser", "-u", $0, "--", executable] + arguments) } ?? (
                executable, [executable] + arguments
            )
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        // posix_spawn and waitpid, not Foundation's Process: the server pg_ctl starts outlives
        // it and inherits what Process uses to notice the end, so waiting never returned.
        let outputPath = NSTemporaryDirectory() + "aggr-pg-output-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        func cStrings(_ strings: [String]) -> [UnsafeMutablePointer<CChar>?] { strings.map { strdup($0) } + [nil] }
        let cArguments = cStrings(argv)
        let cEnvironment = cStrings(variables)
        defer { (cArguments + cEnvironment).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, cArguments, cEnvironment)
        guard spawned == 0 else { throw PostgresClusterError(message: "cannot run \(path): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exited = status & 0x7f == 0
        let code = (status >> 8) & 0xff
        guard exited, code == 0 else {
            throw PostgresClusterError(message: "\((executable as NSString).lastPathComponent) failed: \(text)")
        }
        return text
    }
}

/// Why the test cluster could not start.
public struct PostgresClusterError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { "PostgreSQL test cluster: \(message)" }
}
