import Aggregator

/// The provider types compiled into aggr, in the order `aggr types` lists them.
public enum BuiltinProviders {
    /// Every built-in type; adding a compiled provider is adding it here.
    public static let types: [any Provider.Type] = [
        V2EXProvider.self, GitHubProvider.self, GiteeProvider.self, DribbbleProvider.self, FeedProvider.self, HTMLPageProvider.self,
        JSONAPIProvider.self,
        CommandProvider.self,
    ]

    public static var registry: ProviderRegistry { ProviderRegistry(types) }
}
