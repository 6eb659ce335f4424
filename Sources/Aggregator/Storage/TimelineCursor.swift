import Foundation

/// A position in the timeline order (published descending, then provider, then id).
public struct TimelineCursor: Sendable, Equatable, CustomStringConvertible {
    public var published: Int64
    public var provider: String
    public var id: String

    public init(published: Int64, provider: String, id: String) {
        self.published = published
        self.provider = provider
        self.id = id
    }

    /// The cursor of `stored`: the next page starts after it.
    public init(after stored: StoredItem) {
        self.init(published: EpochMillis.of(stored.item.published), provider: stored.item.provider, id: stored.item.id)
    }

    /// An opaque token safe to paste into a shell: `<millis>.<base64url(provider NUL id)>`.
    public var description: String {
        String(published) + "." + Self.base64URL(Array((provider + "\u{0}" + id).utf8))
    }

    /// `bytes` in unpadded base64url (RFC 4648 §5), written directly: Foundation's encoder and
    /// three replacements through NSString cost every `aggr timeline` start more.
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group = UInt32(bytes[index]) << 16
            if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { group |= UInt32(bytes[index + 2]) }
            for position in 0...count { output.append(alphabet[Int(group >> UInt32(18 - 6 * position)) & 63]) }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Parses a token made by ``description``.
    public init?(token: String) {
        let parts = token.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, let published = Int64(parts[0]) else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8) else { return nil }
        let fields = text.split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false)
        guard fields.count == 2 else { return nil }
        self.init(published: published, provider: String(fields[0]), id: String(fields[1]))
    }
}
