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
        // By bytes: every command opening a file asks, and Foundation's `range(of:)` costs a
        // measurable share of `aggr timeline`'s start-up.
        let bytes = Array(address.utf8.prefix(64))
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, bytes.count >= colon + 3,
            bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
        else { return nil }
        let scheme = bytes[..<colon]
        func letter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        guard letter(scheme[0]), scheme.allSatisfy({ letter($0) || (0x30...0x39).contains($0) || "+-.".utf8.contains($0) }) else {
            return nil
        }
        return String(decoding: scheme.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// The backend among `servers` for `address`, nil for a file path; a URL no backend
    /// opens is an error naming its scheme.
    public static func server(for address: String, among servers: [any StorageServer]) throws -> (any StorageServer)? {
        guard let scheme = scheme(of: address) else { return nil }
        if let server = servers.first(where: { $0.schemes.contains(scheme) }) { return server }
        // `aggr` runs aggr-postgres for postgres:// before it gets here: it is always known.
        let schemes = Set(servers.flatMap(\.schemes) + ["postgres"]).sorted()
        let known = ([localized("a file path")] + schemes.map { "\($0)://…" }).joined(separator: ", ")
        throw StoreError(path: "\(scheme)://…", message: localized("no storage backend for \(scheme):// in this aggr (use \(known))"))
    }
}
