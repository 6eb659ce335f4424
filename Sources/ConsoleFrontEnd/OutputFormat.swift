/// The output formats of listing commands.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// Aligned columns for people.
    case text
    /// One JSON array of contract objects.
    case json
    /// One contract object per line.
    case ndjson
    /// Tab-separated values with a header row.
    case tsv
}
