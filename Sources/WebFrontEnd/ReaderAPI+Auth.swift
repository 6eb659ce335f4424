import Aggregator
import Foundation

/// The Reader API's tokens, signed with the installation's secret (``ServeKeys``).
extension ServeKeys {
    /// The Google Reader `Auth` token (`SID`, `LSID` too).
    ///
    /// It dies with a password change or a rotation. A database user's starts `aggr/u/` and
    /// their name in hex.
    public var readerAuth: String {
        // verbatim: signing keys of the reader tokens
        let signature = sign("reader auth", readerCredential)
        guard let user else { return "aggr/" + signature }
        return "aggr/u/" + user.utf8.map { String(format: "%02x", $0) }.joined() + "/" + signature
    }

    /// The Google Reader action token `T` (57 characters, as Google's were).
    // verbatim: signing keys of the reader tokens
    public var readerAction: String { String(sign("reader action", readerCredential).prefix(57)) }

    /// The database user a reader `Auth` token names (`aggr/u/HEX/…`), unchecked; nil for
    /// the site's own form.
    static func user(ofReaderAuth token: String) -> String? {
        let parts = token.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "aggr", parts[1] == "u", parts[2].utf8.count % 2 == 0, parts[2].utf8.count <= 512 else {
            return nil
        }
        var bytes: [UInt8] = []
        var digits = parts[2].utf8.makeIterator()
        while let high = digits.next(), let low = digits.next() {
            guard let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
        }
        guard !bytes.isEmpty, let name = String(validating: bytes, as: UTF8.self) else { return nil }
        return name
    }
}

/// The Reader API's sign-in: `ClientLogin`, the `Auth` header, the action token `T`.
extension ReaderAPI {
    /// The token of a request's `Authorization: GoogleLogin auth=…` header.
    static func authToken(_ request: WebRequest) -> String? {
        guard let header = request.header("Authorization") else { return nil }
        let parts = header.split(separator: "=", maxSplits: 1)
        // verbatim: the Authorization scheme Google Reader clients send
        let scheme = "googlelogin auth"
        guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == scheme else { return nil }
        return String(parts[1]).trimmingCharacters(in: .whitespaces)
    }

    func authorized(_ request: WebRequest, keys: ServeKeys) -> Bool {
        guard let token = Self.authToken(request) else { return false }
        return SessionBook.constantTimeEqual(token, keys.readerAuth)
    }

    /// `POST /accounts/ClientLogin` with `Email` (a database user's name, when users sign
    /// in by name) and `Passwd` (form or query).
    func login(_ request: WebRequest) throws -> WebResponse {
        let fields = request.form + request.query
        guard let password = fields.first(where: { $0.0 == "Passwd" })?.1 else {
            return .text("Error=BadAuthentication\nInfo=Passwd is missing\n", status: 401)
        }
        let email = fields.first(where: { $0.0 == "Email" })?.1
        switch try signIn(email, password, request.client) {
        case .accepted(let user):
            let token = try keysFor(user).readerAuth
            return .text("SID=\(token)\nLSID=\(token)\nAuth=\(token)\n", status: 200)
        case .rejected:
            return .text("Error=BadAuthentication\n", status: 401)
        case .throttled(let until):
            let seconds = max(1, Int(until.timeIntervalSince(now)))
            return WebResponse.text("Error=BadAuthentication\nInfo=too many wrong passwords; retry in \(seconds) s\n", status: 429)
                .adding("Retry-After", String(seconds))
        }
    }

    /// A 401 unless a POST's `T` is the action token.
    ///
    /// An empty or missing `T` passes when the header auth is valid (FeedMe sends "", Fluent
    /// Reader none). NetNewsWire sends the token's answer as it came, newline included.
    func checkActionToken(_ request: WebRequest, keys: ServeKeys) -> WebResponse? {
        guard let given = request.field("T") ?? request.parameter("T"),
            case let token = given.trimmingCharacters(in: .whitespacesAndNewlines),
            !token.isEmpty
        else { return nil }
        return SessionBook.constantTimeEqual(token, keys.readerAction)
            ? nil : WebResponse.text(localized("bad T token\n"), status: 401).adding("X-Reader-Google-Bad-Token", "true")
    }
}
