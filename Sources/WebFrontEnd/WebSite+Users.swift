import Aggregator
import Foundation

/// Users of a shared database signing in: by name and their own password (`aggr users add`),
/// each then reading and marking with their own state; or, as before, with the config's
/// password as the user serve was started as.
extension WebSite {
    /// Who a request signed in as: a user of the database, or nil for the site's own user
    /// (the config's password, or an open loopback site).
    struct Account: Equatable {
        var user: String?
    }

    /// How long a checked name and password stand without hashing them again.
    static let verifiedLifetime: TimeInterval = 600

    /// Whether the database has users with passwords, who then sign in by name (re-read
    /// every ``keysLifetime``: `aggr users add` in another process shows within seconds).
    func signsInUsers() throws -> Bool {
        let now = Date()
        if let cached = accounts.withLock({ $0 }), now.timeIntervalSince(cached.read) < Self.keysLifetime { return cached.signsIn }
        let signsIn = try library.hasUsersWithPasswords()
        accounts.withLock { $0 = (signsIn, now) }
        return signsIn
    }

    /// Whether pages, feeds and the reader API need a sign-in.
    func requiresSignIn() throws -> Bool {
        try password != nil || signsInUsers()
    }

    /// The library `account` reads and marks with.
    func library(for account: Account) throws -> LibrarySession {
        guard let user = account.user, user != library.userName else { return library }
        if let known = userLibraries.withLock({ $0[user] }) { return known }
        let acting = try library.acting(as: user)
        userLibraries.withLock { $0[user] = acting }
        return acting
    }

    /// Checks a sign-in by user name and password.
    ///
    /// User `name`'s own password when the database has users with passwords and `name` is
    /// one of them; else the config's password, as the site's own user. Wrong tries count
    /// against `client` in either case.
    func signIn(user name: String?, password given: String, client: String) throws -> PasswordCheck {
        guard try signsInUsers() else { return check(given, client: client) { $0 } }
        if let until = throttle.blockedUntil(client, now: clock()) { return .throttled(until: until) }
        if let name, !name.isEmpty, let hash = try library.passwordHash(of: name) {
            let proof = RequestSigner.sha256Hex("\(name)\u{0}\(given)\u{0}\(hash)")
            let now = clock()
            let known = verifiedSignIns.withLock { ($0[proof] ?? .distantPast) > now }
            guard known || PasswordHash.verify(given, against: hash) else {
                throttle.failed(client, password: "\(name)\u{0}\(given)", now: now)
                return .rejected
            }
            verifiedSignIns.withLock { table in
                if table.count > 1_000 { table = table.filter { $0.value > now } }
                table[proof] = now.addingTimeInterval(Self.verifiedLifetime)
            }
            throttle.succeeded(client)
            return .accepted(user: name)
        }
        guard password != nil else {
            throttle.failed(client, password: "\(name ?? "")\u{0}\(given)", now: clock())
            return .rejected
        }
        return check(given, client: client) { $0 }
    }

    /// The reader-app tokens of `user` (nil: the site's own, from the config's password).
    func keys(for user: String?) throws -> ServeKeys {
        let keys = try keys()
        guard let user else { return keys }
        guard let hash = try library.passwordHash(of: user) else { throw UnknownAccount() }
        return keys.signing(for: user, passwordHash: hash)
    }

    /// The account a reader app's `Authorization: GoogleLogin auth=…` names and the keys it
    /// must match; nil when the token names no one who may sign in now.
    func readerAccount(_ request: WebRequest) throws -> (account: Account, keys: ServeKeys)? {
        guard let token = ReaderAPI.authToken(request) else { return nil }
        if let user = ServeKeys.user(ofReaderAuth: token) {
            guard try signsInUsers(), let keys = try? keys(for: user) else { return nil }
            return (Account(user: user), keys)
        }
        // The site's own token: the config's password, or nobody's once users sign in by name.
        if password == nil, try signsInUsers() { return nil }
        return (Account(user: nil), try keys())
    }

    /// A user who has no password (any more).
    struct UnknownAccount: Error {}
}
