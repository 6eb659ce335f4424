import Aggregator
import Foundation
import NIOSSL
import PostgresNIO

/// A `postgres://` URL taken apart: where to connect, as whom, and how, with the password
/// looked up but never part of what is shown.
///
/// `postgres://[user[:password]@]host[:port]/database[?sslmode=…&password_env=NAME]`, or
/// `postgres:///database?host=/run/postgresql` for a Unix socket. The password comes from the
/// URL (accepted, never shown), else the variable `password_env` names, else `PGPASSWORD`;
/// the user from the URL, `PGUSER`, then `USER`; the database defaults to the user's name.
/// TLS: off on loopback and sockets unless asked for; elsewhere required and verified
/// (`sslmode=disable` turns it off; `require`, `verify-ca` and `verify-full` all verify).
struct PostgresAddress: Sendable, Equatable {
    var host: String
    var port: Int
    var socketPath: String?
    var user: String
    var database: String
    var password: String?
    var tls: Bool

    /// The address as messages show it: no password, no options but TLS.
    var display: String {
        let place = socketPath.map { "?host=\($0)" } ?? ""
        let server = socketPath == nil ? "\(host):\(port)" : ""
        return "postgres://\(user)@\(server)/\(database)\(place)"
    }

    /// Parses `text`, reading defaults from `environment`; errors name the part at fault.
    init(_ text: String, environment: [String: String]) throws {
        func fail(_ message: String) -> StoreError {
            StoreError(path: SecretRedactor.redact(url: Self.withoutPassword(text)), message: message)
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            ["postgres", "postgresql"].contains(scheme)
        else { throw fail(localized("not a postgres:// URL")) }
        var options: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard let value = item.value else { throw fail(localized("option \(item.name) needs a value")) }
            guard ["sslmode", "password_env", "host", "user"].contains(item.name) else {
                throw fail(localized("unknown option \(item.name) (known: sslmode, password_env, host, user)"))
            }
            options[item.name] = value
        }
        let named = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? options["host"] ?? environment["PGHOST"] ?? "localhost"
        (host, socketPath) = named.hasPrefix("/") ? ("localhost", named) : (named, nil)
        if let port = components.port {
            self.port = port
        } else if let text = environment["PGPORT"], !text.isEmpty {
            guard let port = Int(text), (1...65_535).contains(port) else { throw fail(localized("PGPORT \(text) is not a port number")) }
            self.port = port
        } else {
            port = 5432
        }
        let given = components.user.flatMap { $0.removingPercentEncoding } ?? options["user"]
        guard let user = given ?? environment["PGUSER"] ?? environment["USER"], !user.isEmpty else {
            throw fail(localized("no user: name one in the URL (postgres://NAME@host/db) or set PGUSER"))
        }
        self.user = user
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? (environment["PGDATABASE"] ?? user) : (path.removingPercentEncoding ?? path)
        if let inURL = components.password {
            password = inURL.removingPercentEncoding ?? inURL
        } else if let name = options["password_env"] {
            guard let value = environment[name], !value.isEmpty else { throw fail(localized("password_env \(name) is not set")) }
            password = value
        } else {
            password = environment["PGPASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        }
        let local = socketPath != nil || ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host)
        switch options["sslmode"] {
        case nil: tls = !local
        case "disable": tls = false
        case "require", "verify-ca", "verify-full": tls = true
        case let mode?:
            throw fail(
                localized(
                    "sslmode \(mode) is not supported (disable, require, verify-ca or verify-full; all but disable verify the server)"))
        }
    }

    /// postgres-nio's configuration for this address.
    func configuration() throws -> PostgresConnection.Configuration {
        if let socketPath {
            return PostgresConnection.Configuration(unixSocketPath: socketPath, username: user, password: password, database: database)
        }
        let security: PostgresConnection.Configuration.TLS =
            tls ? .require(try NIOSSLContext(configuration: .makeClientConfiguration())) : .disable
        var configuration = PostgresConnection.Configuration(
            host: host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host, port: port, username: user, password: password,
            database: database, tls: security)
        configuration.options.connectTimeout = .seconds(10)
        return configuration
    }

    /// `text` with any `user:password@` reduced to `user@`.
    static func withoutPassword(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = nil
        return components.string ?? "postgres://…"
    }
}
