/// What a provider type declares about itself, so config can be checked and documented
/// before any request is made.
public struct ProviderMetadata: Sendable {
    /// The name used as `type` in providers.json, such as `v2ex`.
    public var typeName: String
    /// A human name such as "V2EX".
    public var displayName: String
    /// One sentence saying what the type fetches.
    public var summary: String
    public var sections: [SectionKind]
    /// Type-specific keys accepted inside the entry's `options` object.
    public var options: [OptionSpec]
    public var auth: AuthRequirement
    public var defaultAPIURL: String?
    public var defaultWebURL: String?
    /// The minimum time between two fetches unless the entry sets `interval`.
    public var defaultInterval: TimeSpan
    /// Sections used when an entry lists none (the `feed` type reads its `url` option).
    public var defaultSections: [String]
    /// How `aggr providers --check` asks whether a token is accepted; nil when the type has
    /// no such request.
    public var tokenCheck: TokenCheck?
    /// What users can do upstream through this type (reply, thank, star…).
    public var actions: [ActionSupport]
    /// Actions this type's site does not allow, each with the reason a front end shows.
    public var absentActions: [ItemAction: String]

    public init(
        typeName: String, displayName: String, summary: String, sections: [SectionKind],
        options: [OptionSpec] = [], auth: AuthRequirement = .none, defaultAPIURL: String? = nil,
        defaultWebURL: String? = nil, defaultInterval: TimeSpan = TimeSpan(seconds: 600), defaultSections: [String] = [],
        tokenCheck: TokenCheck? = nil, actions: [ActionSupport] = [], absentActions: [ItemAction: String] = [:]
    ) {
        self.actions = actions
        self.absentActions = absentActions
        self.defaultSections = defaultSections
        self.tokenCheck = tokenCheck
        self.typeName = typeName
        self.displayName = displayName
        self.summary = summary
        self.sections = sections
        self.options = options
        self.auth = auth
        self.defaultAPIURL = defaultAPIURL
        self.defaultWebURL = defaultWebURL
        self.defaultInterval = defaultInterval
    }

    /// How this type performs `action`, or nil when it does not.
    public func support(for action: ItemAction) -> ActionSupport? {
        actions.first { $0.action == action }
    }

    /// Why this type does not perform `action`: the reason it declares, else that it has none.
    public func whyAbsent(_ action: ItemAction) -> String {
        absentActions[action] ?? localized("\(displayName) items have no \(action.rawValue) action in aggr")
    }

    /// The section kind called `name`, if the type has one.
    public func section(named name: String) -> SectionKind? {
        sections.first { $0.name == name }
    }

    /// An entry's API root: its `api_url`, else this type's default ("" for a type with none).
    public func apiURL(for configuration: ProviderConfiguration) -> String {
        configuration.apiURL ?? defaultAPIURL ?? ""
    }

    /// An entry's web root: its `web_url`, else this type's default ("" for a type with none).
    public func webURL(for configuration: ProviderConfiguration) -> String {
        configuration.webURL ?? defaultWebURL ?? ""
    }

    /// The environment variable holding an entry's token: its `token_env`, else this type's default.
    public func tokenVariable(for configuration: ProviderConfiguration) -> String? {
        configuration.tokenEnv ?? auth.defaultTokenEnv
    }
}

/// Whether a provider type needs a token, and where it looks for one by default.
public enum AuthRequirement: Sendable, Equatable {
    /// The type never sends credentials.
    case none
    /// A token from the environment variable raises limits or unlocks some sections.
    case optional(defaultTokenEnv: String, note: String)
    /// Nothing works without a token.
    case required(defaultTokenEnv: String, note: String)

    /// The environment variable read when the entry sets no `token_env`.
    public var defaultTokenEnv: String? {
        switch self {
        case .none: nil
        case .optional(let name, _), .required(let name, _): name
        }
    }
}

/// One section kind of a provider type, such as `node/<name>` or `releases/<owner>/<repo>`.
public struct SectionKind: Sendable {
    public var name: String
    public var summary: String
    public var argument: SectionArgument
    public var options: [OptionSpec]
    /// Whether this kind only works with a token.
    public var needsToken: Bool

    public init(
        _ name: String, summary: String, argument: SectionArgument = .none,
        options: [OptionSpec] = [], needsToken: Bool = false
    ) {
        self.name = name
        self.summary = summary
        self.argument = argument
        self.options = options
        self.needsToken = needsToken
    }

    /// The usage form shown in help and errors, such as `releases/<owner>/<repo>`.
    public var usage: String {
        switch argument {
        case .none: name
        case .segments(let names): ([name] + names.map { "<\($0)>" }).joined(separator: "/")
        case .optionalSegment(let segment): "\(name)[/<\(segment)>]"
        case .rest(let label): "\(name)/<\(label)>"
        }
    }
}

/// The shape of the argument after a section kind.
public enum SectionArgument: Sendable, Equatable {
    /// `hot`: nothing may follow the kind.
    case none
    /// Exactly these `/`-separated parts, such as `["owner", "repo"]`.
    case segments([String])
    /// Zero or one part, such as `trending[/<language>]`.
    case optionalSegment(String)
    /// Everything after the first `/`, slashes and `?` included (URLs, search queries).
    case rest(String)
}

/// One accepted option, either in a section's query or in an entry's `options`.
public struct OptionSpec: Sendable {
    public var name: String
    public var summary: String
    public var valueType: OptionValueType
    /// A human default shown by `aggr types`.
    public var defaultValue: String?

    public init(_ name: String, _ valueType: OptionValueType, summary: String, default defaultValue: String? = nil) {
        self.name = name
        self.summary = summary
        self.valueType = valueType
        self.defaultValue = defaultValue
    }
}

/// The values an option accepts.
public enum OptionValueType: Sendable, Equatable {
    case string
    case integer(ClosedRange<Int>)
    case boolean
    case choice([String])
    case url
    case object
    /// A JSON array of strings, such as a command's argv.
    case stringList

    /// How the type reads in help text.
    public var label: String {
        switch self {
        case .string: "text"
        case .integer(let range): "\(range.lowerBound)…\(range.upperBound)"
        case .boolean: "true|false"
        case .choice(let values): values.joined(separator: "|")
        case .url: "url"
        case .object: "object"
        case .stringList: "[strings]"
        }
    }
}
