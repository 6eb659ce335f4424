/// A problem with the SQLite database, naming its path.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "database \(path): \(message)" }
}
