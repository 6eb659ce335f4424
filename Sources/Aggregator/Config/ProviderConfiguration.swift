/// One checked entry of the `providers` array.
public struct ProviderConfiguration: Sendable {
    /// The unique instance id (`[a-z0-9][a-z0-9_-]*`), stored on every item.
    public var id: String
    /// The registered type name.
    public var type: String
    public var sections: [SectionSpec]
    /// The type-specific `options` object, checked against the type's option specs.
    public var options: [String: JSONValue]
    public var apiURL: String?
    public var webURL: String?
    /// The name of the environment variable holding a token (never the token itself).
    public var tokenEnv: String?
    /// The name of the environment variable holding a `Cookie` header value (a signed-in
    /// browser session), sent only to the provider's own web pages.
    public var cookieEnv: String?
    public var interval: TimeSpan?
    public var limit: Int?
    public var include: String?
    public var exclude: String?
    /// `include` parsed: only matching items of this provider are shown.
    public var includeFilter: FilterExpression?
    /// `exclude` parsed: matching items of this provider are hidden.
    public var excludeFilter: FilterExpression?
    public var enabled: Bool
    /// Names the user gave sections (section key → title), shown instead of upstream's
    /// (a reader app's rename of a subscription).
    public var titles: [String: String] = [:]
    /// `"checkin": true`: `aggr watch` claims the site's daily reward once a day.
    public var checkin = false
    /// `"full_text"`: every new item's page is read for its article during refresh.
    public var fullText: FullTextRule?
    /// Where the entry is, for type-specific errors: the file and `providers[N]`.
    public var file: String
    public var keyPath: String

    public init(
        id: String, type: String, sections: [SectionSpec], options: [String: JSONValue] = [:],
        apiURL: String? = nil, webURL: String? = nil, tokenEnv: String? = nil, interval: TimeSpan? = nil,
        limit: Int? = nil, include: String? = nil, exclude: String? = nil, enabled: Bool = true,
        file: String = "providers.json", keyPath: String = "providers[0]"
    ) {
        self.id = id
        self.type = type
        self.sections = sections
        self.options = options
        self.apiURL = apiURL
        self.webURL = webURL
        self.tokenEnv = tokenEnv
        self.interval = interval
        self.limit = limit
        self.include = include
        self.exclude = exclude
        self.enabled = enabled
        self.file = file
        self.keyPath = keyPath
    }

    /// A config error at `key` inside this entry (`providers[2].options.pages`).
    public func error(at key: String, _ message: String) -> ConfigError {
        ConfigError(file: file, location: key.isEmpty ? keyPath : "\(keyPath).\(key)", message: message)
    }

    /// The integer option `name`, or `fallback` when it is not set.
    public func integerOption(_ name: String, default fallback: Int) -> Int {
        options[name]?.integerValue ?? fallback
    }

    /// The boolean option `name`, or `fallback` when it is not set.
    public func booleanOption(_ name: String, default fallback: Bool) -> Bool {
        options[name]?.boolValue ?? fallback
    }

    /// The string option `name`, if set.
    public func stringOption(_ name: String) -> String? {
        options[name]?.stringValue
    }
}

/// How a provider's items get their full text (`"full_text": true` or `{"selector": "…"}`).
public struct FullTextRule: Sendable, Equatable {
    /// The element holding the article; nil lets the extractor find it.
    public var selector: String?

    public init(selector: String? = nil) { self.selector = selector }
}
