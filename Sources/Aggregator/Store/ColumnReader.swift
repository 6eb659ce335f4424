internal import GRDB
internal import GRDBSQLite

/// The current row of a statement, read column by column through SQLite's C API.
///
/// GRDB's `Row.fetchAll` copies every row into boxed values and decodes each through
/// generic metadata looked up at run time; for a page of items that was a third of a
/// request's time. Columns here are read in place, typed by the caller.
struct ColumnReader {
    private let handle: SQLiteStatement

    /// Whether column `index` (0-based) is NULL.
    func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// Column `index` as an integer (0 for NULL).
    func integer(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// Column `index` as an integer, nil for NULL.
    func optionalInteger(_ index: Int32) -> Int64? { isNull(index) ? nil : integer(index) }

    /// Column `index` as an `Int`, nil for NULL.
    func optionalInt(_ index: Int32) -> Int? { isNull(index) ? nil : Int(integer(index)) }

    /// Column `index` as text ("" for NULL); bytes that are not UTF-8 are repaired.
    func text(_ index: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, index) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, index))), as: UTF8.self)
    }

    /// Column `index` as text, nil for NULL.
    func optionalText(_ index: Int32) -> String? { isNull(index) ? nil : text(index) }

    /// Steps `statement` (its arguments already set) to its end, decoding each row with
    /// `decode`, then resets it.
    static func rows<Value>(of statement: Statement, in db: Database, _ decode: (ColumnReader) throws -> Value) throws -> [Value] {
        var values: [Value] = []
        try each(of: statement, in: db) { values.append(try decode($0)) }
        return values
    }

    /// Steps `statement` (its arguments already set) to its end, handing each row to `body`
    /// as it comes, then resets it.
    static func each(of statement: Statement, in db: Database, _ body: (ColumnReader) throws -> Void) throws {
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        let reader = ColumnReader(handle: handle)
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw failure(code, of: handle, connection: db.sqliteConnection) }
            try body(reader)
        }
    }

    /// The error SQLite reported for `code` while stepping `handle`.
    static func failure(_ code: Int32, of handle: SQLiteStatement, connection: SQLiteConnection?) -> DatabaseError {
        let message = connection.map { String(cString: sqlite3_errmsg($0)) }
        return DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: String(cString: sqlite3_sql(handle)))
    }
}
