import Foundation

/// A provider could not turn an upstream answer into items.
///
/// Providers and parsers throw it with a reason and a detail; the refresher stamps the
/// provider and section on it where the error leaves the fetch (``stamped(provider:section:)``),
/// so no throw site repeats them.
public struct ProviderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Reason: Sendable, Equatable {
        /// The payload is not what the site's API or page is known to return.
        case unexpectedPayload
        /// The section needs a token or a signed-in session.
        case needsSignIn
        /// A CDN or firewall answered instead of the site.
        case blocked
        /// The site has no such page, repository, topic or account.
        case notFound
        /// The type has no route for a section kind its metadata accepted: a defect in aggr,
        /// said plainly instead of fetching some other section. The detail is the section key.
        case unknownSection
    }

    public var reason: Reason
    public var detail: String
    /// The provider id, once the refresher stamped it ("" before).
    public var provider = ""
    /// The section key, once the refresher stamped it ("" before).
    public var section = ""

    public init(_ reason: Reason, detail: String) {
        self.reason = reason
        self.detail = detail
    }

    /// The payload is not what the site is known to return.
    public static func unexpectedPayload(detail: String) -> ProviderError { ProviderError(.unexpectedPayload, detail: detail) }
    /// The section needs a token or a signed-in session.
    public static func needsSignIn(detail: String) -> ProviderError { ProviderError(.needsSignIn, detail: detail) }
    /// A CDN or firewall answered instead of the site.
    public static func blocked(detail: String) -> ProviderError { ProviderError(.blocked, detail: detail) }
    /// The site has no such thing.
    public static func notFound(detail: String) -> ProviderError { ProviderError(.notFound, detail: detail) }
    /// No route for the section `key`'s kind.
    public static func unknownSection(_ key: String) -> ProviderError { ProviderError(.unknownSection, detail: key) }

    /// This error with the provider and section it came from.
    public func stamped(provider: String, section: String) -> ProviderError {
        var stamped = self
        stamped.provider = provider
        stamped.section = section
        return stamped
    }

    public var description: String {
        switch reason {
        case .unknownSection: localized("aggr has no route for section \"\(detail)\" of this type (a bug: please report it)")
        case .unexpectedPayload: localized("unexpected answer: \(detail)")
        case .needsSignIn: (section.isEmpty ? "" : "\(section) ") + localized("needs a token or sign-in: \(detail)")
        case .blocked, .notFound: detail
        }
    }

    /// Says where decoding failed and how the body starts, without dumping the whole body.
    public static func describe(decoding error: Error, body: [UInt8]) -> String {
        let start = TerminalText.sanitize(String(decoding: body.prefix(80), as: UTF8.self))
        let place: String
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            place = "missing \"\(key.stringValue)\" at \(path(context.codingPath))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            place = localized("wrong type at \(path(context.codingPath))")
        case DecodingError.dataCorrupted(let context):
            place = context.codingPath.isEmpty ? localized("not JSON") : localized("bad value at \(path(context.codingPath))")
        default:
            place = localized("cannot be read")
        }
        return localized("\(place) (body starts: \(start.isEmpty ? "empty" : start))")
    }

    private static func path(_ keys: [CodingKey]) -> String {
        keys.isEmpty
            ? localized("the top level")
            : keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(
                in: CharacterSet(charactersIn: "."))
    }
}
