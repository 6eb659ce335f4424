import Foundation

/// A page's address split the way providers recognize their sites: host, path parts, query.
public struct WebPage: Sendable, Equatable {
    /// The host, lower-cased, without a leading `www.`.
    public var host: String
    /// The path's non-empty parts.
    public var path: [String]
    /// The query's parameters (the first value of a repeated one).
    public var query: [String: String]

    /// Splits `address`; nil when it has no host.
    public init?(address: String) {
        guard let components = URLComponents(string: address), let rawHost = components.host?.lowercased(), !rawHost.isEmpty else {
            return nil
        }
        host = rawHost.hasPrefix("www.") ? String(rawHost.dropFirst(4)) : rawHost
        path = components.path.split(separator: "/").map(String.init)
        query = Dictionary((components.queryItems ?? []).compactMap { item in item.value.map { (item.name, $0) } }) { first, _ in first }
    }
}

/// A page of a site a provider type knows, which no section of that type follows.
public struct UnsupportedPage: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}

/// A page recognized by a provider type: the section of that type that follows it.
public struct RecognizedPage: Sendable, Equatable {
    public var type: String
    public var section: String

    public init(type: String, section: String) {
        self.type = type
        self.section = section
    }
}

extension ProviderRegistry {
    /// The section that follows the page at `address`, asking every registered type; nil
    /// when no type knows the site (try it as a feed).
    public func recognize(_ address: String) throws(UnsupportedPage) -> RecognizedPage? {
        guard let page = WebPage(address: address) else { return nil }
        for type in types {
            if let section = try type.section(following: page) { return RecognizedPage(type: type.metadata.typeName, section: section) }
        }
        return nil
    }
}
