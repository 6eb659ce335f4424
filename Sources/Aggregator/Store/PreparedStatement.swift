internal import GRDB
internal import GRDBSQLite

/// A cached GRDB statement driven through SQLite's C API: values are bound straight from
/// Swift strings and integers.
///
/// Ingest runs a few statements per item; building GRDB's `StatementArguments` (an array
/// of boxed values per call) cost as much as SQLite's own work for those statements.
struct PreparedStatement {
    private let handle: SQLiteStatement
    private let connection: SQLiteConnection?

    /// SQLite's "copy the bytes before returning" destructor.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ statement: Statement, in db: Database) {
        handle = statement.sqliteStatement
        connection = db.sqliteConnection
    }

    /// Binds the `index`-th parameter (1-based) to `value`, NULL when nil.
    func bind(_ value: String?, at index: Int32) {
        guard var value else {
            sqlite3_bind_null(handle, index)
            return
        }
        value.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { text in
                if let base = text.baseAddress {
                    _ = sqlite3_bind_text(handle, index, base, Int32(text.count), Self.transient)
                } else {
                    // An empty string still needs a non-NULL pointer, or SQLite would bind NULL.
                    _ = sqlite3_bind_text(handle, index, "", 0, Self.transient)
                }
            }
        }
    }

    func bind(_ value: Int64?, at index: Int32) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    func bind(_ value: Int?, at index: Int32) {
        bind(value.map(Int64.init), at: index)
    }

    /// Runs the statement to its end with the values bound, then resets it for the next call.
    func bind(_ value: ColumnValue, at index: Int32) {
        switch value {
        case .text(let text): bind(text, at: index)
        case .integer(let number): bind(number, at: index)
        }
    }

    func execute() throws {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        var code = sqlite3_step(handle)
        while code == SQLITE_ROW { code = sqlite3_step(handle) }
        guard code == SQLITE_DONE else { throw ColumnReader.failure(code, of: handle, connection: connection) }
    }
}
