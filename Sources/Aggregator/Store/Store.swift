import Foundation
internal import GRDB

/// The SQLite timeline: items, sections, read state, provider state, HTTP validators and
/// the full-text index, in one WAL-mode file shared safely by concurrent `aggr` processes.
public final class Store: Sendable {
    /// The database file.
    public let path: String
    /// A pool (one writer, concurrent readers) for a file opened for writing; one
    /// connection for a file opened read-only, as a pool would open a second to read.
    let pool: any DatabaseWriter

    /// Whether the file could only be opened for reading: every read works, writes fail
    /// with "is read-only".
    public let isReadOnly: Bool

    /// Opens (creating when needed) the database at `path` and brings its schema up to date.
    ///
    /// A file this process may not write (its permissions, or a directory where SQLite cannot
    /// create the write-ahead log beside it) is opened read-only, so `timeline`, `search`,
    /// `show` and `providers` still work; its schema must then already be current.
    public convenience init(path: String) throws {
        try self.init(path: path, readOnly: false)
    }

    /// The store for a command that only reads.
    ///
    /// An existing file whose schema is current is opened read-only, which skips the
    /// write-ahead-log set-up, the small write and the `fdatasync`s a writable open costs
    /// (~1 ms of `aggr timeline`, more on a slow disk). A missing or older file is opened as
    /// ``init(path:)`` opens it, so it is created or upgraded.
    public static func forReading(path: String) throws -> Store {
        if FileManager.default.fileExists(atPath: path), let store = try? Store(path: path, readOnly: true) { return store }
        return try Store(path: path)
    }

    private init(path: String, readOnly forced: Bool) throws {
        self.path = path
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let folder = directory.isEmpty ? "." : directory
        isReadOnly =
            forced
            || FileManager.default.fileExists(atPath: path)
                && (access(path, W_OK) != 0 || (access(folder, W_OK) != 0 && !FileManager.default.fileExists(atPath: path + "-shm")))
        var configuration = GRDB.Configuration()
        configuration.readonly = isReadOnly
        // Another aggr may hold the write lock for a whole refresh transaction: wait, never fail.
        configuration.busyMode = .timeout(30)
        configuration.label = "aggr.store"
        let readOnly = isReadOnly
        configuration.prepareDatabase { db in
            // WAL with NORMAL sync cannot corrupt; at worst the last refresh is lost on power failure.
            if !readOnly { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            if !db.configuration.readonly {
                // Savepoints and statement journals record every page they change: in
                // memory, not through a temporary file (106,000 of the 118,000 pwrite calls
                // of a 1,000-feed refresh went there when each write had a savepoint).
                try db.execute(sql: "PRAGMA temp_store = MEMORY")
                // The writer touches index pages all over a large timeline (six indexes and
                // the search index per item): 2 MB of cache made a 10,000-feed refresh
                // read back and rewrite the same pages; 16 MB is what an import uses.
                try db.execute(sql: "PRAGMA cache_size = -16384")
                // Checkpoints every 8,000 pages (32 MB of log) instead of 1,000: a page a
                // refresh changes in many commits is copied into the database once per
                // checkpoint, and each checkpoint syncs (a fifth of a 10,000-feed refresh's
                // writer time went to writing, syncing and reading pages back).
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 8000")
            }
            db.add(function: RegexCache.function)
            try FullTextRank.register(in: db)
        }
        do {
            pool = try Self.openRetryingWhileBusy { [isReadOnly] in
                let pool = try Self.openPool(path: path, configuration: configuration)
                if isReadOnly {
                    try StoreSchema.checkReadable(pool, path: path)
                } else {
                    try StoreSchema.migrate(pool, path: path)
                }
                return pool
            }
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw StoreError(path: path, message: Self.explain(error))
        }
    }

    /// `open()`, tried again for up to 10 s while SQLite answers BUSY without waiting.
    ///
    /// In WAL mode a few moments refuse at once instead of calling the busy handler: another
    /// process closing the last connection (it locks the file while it cleans up the log),
    /// or recovering after a crash. Processes starting together on one file meet them.
    private static func openRetryingWhileBusy(_ open: () throws -> any DatabaseWriter) throws -> any DatabaseWriter {
        let deadline = Date().addingTimeInterval(10)
        while true {
            do {
                return try open()
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                usleep(50_000)
            }
        }
    }

    /// The pool, or for reading only one connection (a pool's writer connection would sit
    /// unused beside the reader it opens: a second open and schema parse for every
    /// `timeline`); a read-only WAL file whose `-shm` cannot be created is opened immutable.
    private static func openPool(path: String, configuration: GRDB.Configuration) throws -> any DatabaseWriter {
        func open(_ path: String) throws -> any DatabaseWriter {
            configuration.readonly
                ? try DatabaseQueue(path: path, configuration: configuration) : try DatabasePool(path: path, configuration: configuration)
        }
        do {
            return try open(path)
        } catch let error as DatabaseError
            where configuration.readonly && [.SQLITE_CANTOPEN, .SQLITE_READONLY].contains(error.resultCode)
        {
            // A WAL file needs its -shm beside it, which this process cannot create; nobody it
            // could be writes the file either, so reading it as immutable is safe.
            let url = URL(fileURLWithPath: path).absoluteString
            return try open(url + "?immutable=1")
        }
    }

    static func explain(_ error: DatabaseError) -> String {
        switch error.resultCode {
        case .SQLITE_NOTADB: "not an aggr database (the file is not SQLite)"
        case .SQLITE_CORRUPT: "the file is corrupt (\(error.message ?? "no detail"))"
        case .SQLITE_CANTOPEN: "cannot be opened (check the directory exists and is writable)"
        case .SQLITE_READONLY: "is read-only"
        case .SQLITE_FULL: "the disk is full"
        case .SQLITE_ERROR
        where ["parser stack overflow", "too large", "too many"].contains(where: { error.message?.contains($0) == true }):
            // Filters are bounded before they reach SQLite; this names a limit if one is still hit.
            "the filter is too complex for SQLite (\(error.message ?? "")); simplify it or join words into one pattern"
        default: error.message ?? "\(error.resultCode)"
        }
    }

    /// Runs `body` in one IMMEDIATE write transaction, mapping SQLite errors to ``StoreError``.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try pool.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                return result!
            }
        } catch let error as DatabaseError {
            throw StoreError(path: path, message: Self.explain(error))
        }
    }

    /// Moves ``dataVersion()`` on, inside the write that changed the timeline.
    ///
    /// By its key: an update of the whole table needs a statement journal, and each
    /// statement that opens one makes FTS5 write its pending index out as a segment.
    static func noteTimelineChange(in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE change_count SET value = value + 1 WHERE id = 1").execute()
    }

    /// A number that changes with every write, by any process, that changes a listing.
    ///
    /// Items stored, updated or removed, read or saved state move it; equal numbers mean
    /// nothing a front end shows has changed since.
    public func dataVersion() throws -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "SELECT value FROM change_count WHERE id = 1") ?? 0 }
    }

    /// Runs `body` on a read snapshot, mapping SQLite errors to ``StoreError``.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try pool.read(body)
        } catch let error as DatabaseError {
            throw StoreError(path: path, message: Self.explain(error))
        }
    }

    /// Milliseconds since 1970, the unit every date column uses (``EpochMillis``).
    static func millis(_ date: Date) -> Int64 { EpochMillis.of(date) }

    static func date(_ millis: Int64) -> Date { EpochMillis.date(millis) }
}

extension Store: TimelineStorage {
    public var location: String { path }

    public func holdsItem(provider: String, id: String) throws -> Bool {
        try item(provider: provider, id: id) != nil
    }
}
