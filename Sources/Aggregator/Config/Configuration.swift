/// The checked contents of providers.json.
public struct Configuration: Sendable {
    /// The file it was read from, as shown in errors.
    public var file: String
    public var providers: [ProviderConfiguration]
    public var timeline: TimelineSettings
    public var retention: RetentionPolicy
    /// Named filters shown with `aggr timeline <view>`, in file order.
    public var views: [NamedView]
    /// What `aggr watch` tells the user about, in file order.
    public var notify: [NotificationRule] = []
    /// How `aggr serve` listens and signs in.
    public var serve = ServeSettings()
    /// The keys of `aggr tui`.
    public var keys = ReaderKeys()
    /// The language of messages, pages and the reader (`"language"`: `en`, `zh-Hans`, …);
    /// nil follows `--lang`, then `LC_ALL`/`LC_MESSAGES`/`LANG`.
    public var language: String?

    public init(
        file: String, providers: [ProviderConfiguration] = [], timeline: TimelineSettings = TimelineSettings(),
        retention: RetentionPolicy = RetentionPolicy(), views: [NamedView] = []
    ) {
        self.file = file
        self.providers = providers
        self.timeline = timeline
        self.retention = retention
        self.views = views
    }

    /// The entry with instance id `id`.
    public func provider(id: String) -> ProviderConfiguration? {
        providers.first { $0.id == id }
    }

    /// The notification rule named `name`.
    public func notificationRule(named name: String) -> NotificationRule? {
        notify.first { $0.name == name }
    }
}

/// The `timeline` object of providers.json.
public struct TimelineSettings: Sendable, Equatable {
    /// Items shown when `--limit` is not given.
    public var limit: Int
    /// A filter hiding matching items of every provider.
    public var exclude: String?
    /// `exclude` parsed.
    public var excludeFilter: FilterExpression?

    public init(limit: Int = 40, exclude: String? = nil) {
        self.limit = limit
        self.exclude = exclude
    }
}

/// How much the store keeps: applied by `aggr prune` and after each refresh.
public struct RetentionPolicy: Sendable, Equatable {
    /// Items kept per provider, newest first; nil keeps all.
    public var maxItemsPerProvider: Int?
    /// Items published longer ago than this are removed; nil keeps them.
    public var maxAge: TimeSpan?

    public static let defaultMaxItemsPerProvider = 10_000

    public init(maxItemsPerProvider: Int? = RetentionPolicy.defaultMaxItemsPerProvider, maxAge: TimeSpan? = nil) {
        self.maxItemsPerProvider = maxItemsPerProvider
        self.maxAge = maxAge
    }
}

/// A named filter expression from the `views` object.
public struct NamedView: Sendable, Equatable {
    public var name: String
    public var expression: String
    /// `expression` parsed.
    public var filter: FilterExpression?

    public init(name: String, expression: String, filter: FilterExpression? = nil) {
        self.name = name
        self.expression = expression
        self.filter = filter
    }
}
