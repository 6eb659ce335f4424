/// A storage backend on a database server, named by a URL in `--db` or `AGGR_DB` instead of
/// a file path (``PostgresStorage``'s `postgres://…`).
///
/// The library knows the SQLite store; a front end that links a server backend hands it to
/// ``LibrarySession/open(configuration:databasePath:registry:environment:readingOnly:servers:http:logger:clock:)``,
/// so binaries without one stay free of its client library.
public protocol StorageServer: Sendable {
    /// The URL schemes this backend opens (`postgres`, `postgresql`).
    var schemes: [String] { get }
    /// Connects to the database `address` names, creating or upgrading its schema unless
    /// `readingOnly` and it is current. Errors name the address without its password.
    func open(_ address: String, environment: [String: String], readingOnly: Bool) throws -> any TimelineStorage
}

/// What a `--db` value names: a file, or a server database by its URL scheme.
public enum StorageAddress {
    /// The scheme of `address` when it is a URL (`postgres` of `postgres://host/db`), or nil
    /// for a file path (a path may hold `:` but never starts with `letters://`).
    public static func scheme(of address: String) -> String? {
        guard let range = address.range(of: "://") else { return nil }
        let scheme = address[..<range.lowerBound]
        guard let first = scheme.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII,
            scheme.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || "+-.0123456789".unicodeScalars.contains($0)) })
        else { return nil }
        return scheme.lowercased()
    }

    /// The backend among `servers` for `address`, nil for a file path; a URL no backend
    /// opens is an error naming its scheme.
    public static func server(for address: String, among servers: [any StorageServer]) throws -> (any StorageServer)? {
        guard let scheme = scheme(of: address) else { return nil }
        if let server = servers.first(where: { $0.schemes.contains(scheme) }) { return server }
        let known = ([localized("a file path")] + servers.flatMap(\.schemes).map { "\($0)://…" }).joined(separator: ", ")
        throw StoreError(path: "\(scheme)://…", message: localized("no storage backend for \(scheme):// in this aggr (use \(known))"))
    }
}
