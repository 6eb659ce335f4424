/// The provider types aggr knows, by type name.
public struct ProviderRegistry: Sendable {
    public let types: [any Provider.Type]

    /// A registry of `types`, in the order `aggr types` lists them.
    public init(_ types: [any Provider.Type]) {
        self.types = types
    }

    /// The type registered as `name`.
    public func type(named name: String) -> (any Provider.Type)? {
        types.first { $0.typeName == name }
    }

    public var typeNames: [String] { types.map { $0.typeName } }

    /// How often `entry` is fetched: its own `interval`, else its type's default.
    public func interval(of entry: ProviderConfiguration) -> TimeSpan? {
        entry.interval ?? type(named: entry.type)?.metadata.defaultInterval
    }
}
