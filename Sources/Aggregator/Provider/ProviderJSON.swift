import Foundation

/// Decodes upstream JSON (snake_case keys) into a provider's Codable types, turning any
/// failure into a ``ProviderError`` that says where decoding stopped.
public enum ProviderJSON {
    public static func decode<T: Decodable>(_ type: T.Type, _ body: [UInt8]) throws(ProviderError) -> T {
        // JSONDecoder would call bytes that are not UTF-8 "wrong type at the top level".
        if let offset = UTF8Validation.firstInvalidOffset(body) {
            throw ProviderError.unexpectedPayload(
                detail: localized("the JSON is not valid UTF-8 (byte 0x\(String(body[offset], radix: 16)) at byte offset \(offset))"))
        }
        do {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            return try decoder.decode(T.self, from: Data(body))
        } catch {
            throw ProviderError.unexpectedPayload(detail: ProviderError.describe(decoding: error, body: body))
        }
    }
}
