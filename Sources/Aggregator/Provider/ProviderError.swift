import Foundation

/// A provider could not turn an upstream answer into items; names the provider and section.
public enum ProviderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The payload is not what the site's API or page is known to return.
    case unexpectedPayload(provider: String, section: String, detail: String)
    /// The section needs a token or a signed-in session.
    case needsSignIn(provider: String, section: String, detail: String)
    /// A CDN or firewall answered instead of the site.
    case blocked(provider: String, section: String, detail: String)
    case notFound(provider: String, section: String, detail: String)
    /// The type has no route for a section kind its metadata accepted: a defect in aggr, said
    /// plainly instead of fetching some other section.
    case unknownSection(provider: String, section: String)

    public var description: String {
        switch self {
        case .unknownSection(_, let section): "aggr has no route for section \"\(section)\" of this type (a bug: please report it)"
        case .unexpectedPayload(_, _, let detail): "unexpected answer: \(detail)"
        case .needsSignIn(_, let section, let detail): "\(section) needs a token or sign-in: \(detail)"
        case .blocked(_, _, let detail), .notFound(_, _, let detail): detail
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
            place = "wrong type at \(path(context.codingPath))"
        case DecodingError.dataCorrupted(let context):
            place = context.codingPath.isEmpty ? "not JSON" : "bad value at \(path(context.codingPath))"
        default:
            place = "cannot be read"
        }
        return "\(place) (body starts: \(start.isEmpty ? "empty" : start))"
    }

    private static func path(_ keys: [CodingKey]) -> String {
        keys.isEmpty
            ? "the top level"
            : keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(
                in: CharacterSet(charactersIn: "."))
    }
}
