import Foundation

/// Percent-encoding of one URL component (a path segment, a query name or value).
public enum PercentEncoding {
    /// RFC 3986's unreserved characters, ASCII only: `CharacterSet.alphanumerics` also
    /// holds every Unicode letter, which then went into URLs unencoded.
    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `text` with every byte outside the unreserved set percent-encoded (so `&`, `=`, `+`,
    /// `/`, `#`, spaces and non-ASCII text cannot change the URL's structure).
    public static func component(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
