import Aggregator
import ConsoleFrontEnd
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// Runs `aggr serve`: the web site over Hummingbird, with the watch scheduler in the same
/// process unless refreshing is off.
public struct WebServer: Sendable {
    /// Why the server will not start.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public var description: String
        /// The exit status: 78 for a config problem, 75 when another watch holds the database.
        public var exitCode: Int32
    }

    public var configuration: Configuration
    public var configPath: String?
    public var databasePath: String
    public var listen: ListenAddress
    public var refresh: Bool
    public var registry: ProviderRegistry
    public var environment: [String: String]
    /// The server databases `databasePath` may name (``StorageServer``).
    public var servers: [any StorageServer] = []
    /// Deadlines and the connection cap: the defaults, or `serve` in providers.json.
    public var limits: ServeLimits { ServeLimits(configuration.serve) }

    public init(
        configuration: Configuration, configPath: String?, databasePath: String, listen: ListenAddress, refresh: Bool,
        registry: ProviderRegistry, environment: [String: String]
    ) {
        self.configuration = configuration
        self.configPath = configPath
        self.databasePath = databasePath
        self.listen = listen
        self.refresh = refresh
        self.registry = registry
        self.environment = environment
    }

    /// The password from `serve.password_env`, or nil.
    var password: String? {
        configuration.serve.passwordEnv.flatMap { environment[$0] }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Checks what must hold before listening: beyond loopback, a password or users who
    /// sign in with their own (`usersSignIn`).
    public func check(usersSignIn: Bool = false) throws(Refusal) {
        guard listen.isLoopback || password != nil || usersSignIn else {
            let hint =
                configuration.serve.passwordEnv.map { localized("\($0) is not set") }
                ?? "set \"serve\": {\"password_env\": \"AGGR_PASSWORD\"} in \(configuration.file) and export that variable"
            throw Refusal(
                description:
                    localized(
                        "refusing to listen on \(listen) without a password: anyone who can reach it could read and change your timeline (\(hint))"
                    ),
                exitCode: 78)
        }
    }

    /// Serves until SIGINT or SIGTERM; `log` receives one line per event, timestamped once
    /// here (the embedded watch log stamps its own lines).
    public func run(log write: @escaping @Sendable (String) -> Void) async throws {
        let log: @Sendable (String) -> Void = { write("\(ISOTimestamp.format(Date())) \($0)") }
        // A SQLite file has no users: refuse before touching it.
        if StorageAddress.scheme(of: databasePath) == nil { try check() }
        var lock: WatchLock?
        // One refreshing process per SQLite file; on a server every refresher claims its share.
        if refresh, StorageAddress.scheme(of: databasePath) == nil {
            do {
                // verbatim: the lock's holder, a command name
                lock = try WatchLock(database: databasePath, holder: "aggr serve")
            } catch {
                throw Refusal(description: localized("\(error); or serve without refreshing: aggr serve --no-refresh"), exitCode: 75)
            }
        }
        var logger = Logger(label: "aggr.serve")
        logger.logLevel = .warning
        // One session for the pages, the Reader API and the watch: a reload the watch makes
        // is what the next page shows.
        let session = try LibrarySession.open(
            configuration: configuration, databasePath: databasePath, registry: registry, environment: environment, servers: servers,
            logger: logger)
        let usersSignIn = try session.hasUsersWithPasswords()
        try check(usersSignIn: usersSignIn)
        let hosts = HostAllowlist(listen: listen, configured: configuration.serve.hosts)
        let site = WebSite(session: session, password: password, hosts: hosts, fetchesThreads: true)
        Self.raiseDescriptorLimit(to: limits.maximumConnections + 256)
        var watcherTask: Task<Void, Never>?
        if refresh {
            let watchLog = WatchLog(live: false, color: false, width: 100) { text in write(String(text.dropLast())) }
            let watcher = Watcher(
                session: session, configPath: configPath, notifier: Notifier(environment: environment), report: watchLog.handle,
                refreshEvents: watchLog.handle)
            watcherTask = Task { await watcher.run() }
        } else if let configPath {
            // Without the scheduler the pages still follow providers.json: a provider added
            // or a view changed shows up within a couple of seconds.
            let initial = ConfigReloader(path: configPath, registry: registry, displayName: configuration.file)
            watcherTask = Task {
                var reloader = initial
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: UInt64(ConfigReloader.pollInterval * 1_000_000_000))
                    do {
                        guard let reloaded = try reloader.reload() else { continue }
                        session.configuration = reloaded
                        log(localized("\(reloaded.file) changed: reloaded"))
                    } catch {
                        log(localized("\(error); keeping the last good config"))
                    }
                }
            }
        }
        let listen = listen
        let protection =
            usersSignIn
            ? localized("users sign in with their own passwords")
            : password != nil ? localized("password required") : localized("no password: loopback only")
        let app = Application(
            responder: CallbackResponder { (request: Request, context: ServeContext) in
                await Self.answer(request, context: context, site: site)
            },
            server: .guarded(limits, counter: ConnectionCounter(limit: limits.maximumConnections)),
            configuration: .init(address: .hostname(listen.host, port: listen.port), serverName: "aggr", backlog: 1_024),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? listen.port
                let host = listen.host.contains(":") ? "[\(listen.host)]" : listen.host
                log("listening on http://\(host):\(port)/ (\(protection))")
            },
            logger: logger)
        try await app.runService()
        watcherTask?.cancel()
        await watcherTask?.value
        withExtendedLifetime(lock) {}
        log("stopped")
    }

    /// Replaces the installation's token secret; returns what to tell the user.
    ///
    /// Every reader app signs in again and every open form must be loaded again.
    public func rotateTokens() throws -> String {
        let session = try LibrarySession.open(
            configuration: configuration, databasePath: databasePath, registry: registry, environment: environment, servers: servers)
        try session.rotateInstallationSecret("serve")
        return localized("reader-app tokens and form tokens rotated: apps sign in again (a running aggr serve follows within seconds)")
    }

    /// Lifts the soft limit on open files towards `wanted` (up to the hard limit), so the
    /// connection cap, not `EMFILE`, decides when the server is full.
    static func raiseDescriptorLimit(to wanted: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(wanted) else { return }
        limit.rlim_cur = min(rlim_t(wanted), limit.rlim_max)
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// The largest request body read (forms and reader-API posts are small).
    static let maximumBody = 1 << 20

    static func answer(_ request: Request, context: ServeContext, site: WebSite) async -> Response {
        var request = request
        let body: [UInt8]
        do {
            let buffer = try await request.collectBody(upTo: maximumBody)
            body = Array(buffer.readableBytesView)
        } catch {
            return Response(status: .contentTooLarge, body: .init(byteBuffer: ByteBuffer(string: localized("request body over 1 MiB\n"))))
        }
        var headers = request.headers.map { ($0.name.rawName, $0.value) }
        // HTTP/1.1's Host arrives as the request's authority, not as a header field.
        if let authority = request.head.authority { headers.append(("Host", authority)) }
        let web = WebRequest(
            method: request.method.rawValue, target: request.uri.string, headers: headers, body: body, client: context.client)
        let answer = await site.respond(to: web)
        var fields = HTTPFields()
        for (name, value) in answer.headers {
            if let field = HTTPField.Name(name) { fields.append(HTTPField(name: field, value: value)) }
        }
        return Response(status: .init(code: answer.status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}

/// Hummingbird's request context, with the client's address for login rate limits.
struct ServeContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let client: String

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        client = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }
}
