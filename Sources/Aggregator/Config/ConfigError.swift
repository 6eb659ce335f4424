/// A problem with providers.json, naming the file and the key path it is at.
///
/// Printed as `providers.json: providers[2].sections[0]: unknown section kind …`; the CLI
/// exits with 78 (EX_CONFIG) for every config error.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as the user named it, or a description such as `--config`.
    public var file: String
    /// Where in the document, such as `providers[2].sections[0]`, or `line 3, column 5`.
    public var location: String
    public var message: String

    public init(file: String, location: String, message: String) {
        self.file = file
        self.location = location
        self.message = message
    }

    public var description: String {
        location.isEmpty ? "\(file): \(message)" : "\(file): \(location): \(message)"
    }
}
