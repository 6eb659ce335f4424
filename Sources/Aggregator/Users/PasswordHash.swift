internal import COpenSSL
import Foundation

/// User passwords as they are kept: PBKDF2-HMAC-SHA256 with a random salt and many rounds,
/// written `pbkdf2-sha256$ROUNDS$SALT$HASH` (base64), so a stolen database does not give
/// the passwords away cheaply.
public enum PasswordHash {
    /// The rounds new hashes use (OWASP's figure for PBKDF2-HMAC-SHA256).
    public static let rounds = 600_000

    /// Why a password could not be hashed.
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String { localized("cannot hash the password: libcrypto (libssl3) is not installed") }
    }

    /// `password` hashed with a new random salt.
    public static func make(_ password: String, rounds: Int = PasswordHash.rounds) throws -> String {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        guard let hash = derive(password, salt: salt, rounds: rounds) else { throw Unavailable() }
        return "pbkdf2-sha256$\(rounds)$\(Data(salt).base64EncodedString())$\(Data(hash).base64EncodedString())"
    }

    /// Whether `password` is the one `stored` was made from (compared in constant time).
    public static func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "pbkdf2-sha256", let rounds = Int(parts[1]), (1...10_000_000).contains(rounds),
            let salt = Data(base64Encoded: String(parts[2])), let expected = Data(base64Encoded: String(parts[3])),
            let actual = derive(password, salt: Array(salt), rounds: rounds, length: expected.count)
        else { return false }
        return zip(actual, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0 && actual.count == expected.count
    }

    private static func derive(_ password: String, salt: [UInt8], rounds: Int, length: Int = 32) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: length)
        let bytes = Array(password.utf8)
        let done = bytes.withUnsafeBufferPointer { passwordBytes in
            passwordBytes.withMemoryRebound(to: CChar.self) { text in
                aggr_pbkdf2_sha256(text.baseAddress, text.count, salt, salt.count, Int32(rounds), &output, length)
            }
        }
        return done == 1 ? output : nil
    }
}
