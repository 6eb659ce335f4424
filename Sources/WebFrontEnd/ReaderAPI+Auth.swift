import Aggregator
import Foundation

/// The Reader API's tokens, signed with the installation's secret (``ServeKeys``).
extension ServeKeys {
    /// The Google Reader `Auth` token (`SID`, `LSID` too); it dies with a password change or
    /// a rotation.
    // verbatim: signing keys of the reader tokens
    public var readerAuth: String { "aggr/" + sign("reader auth", password ?? "") }

    /// The Google Reader action token `T` (57 characters, as Google's were).
    // verbatim: signing keys of the reader tokens
    public var readerAction: String { String(sign("reader action", password ?? "").prefix(57)) }
}

/// The Reader API's sign-in: `ClientLogin`, the `Auth` header, the action token `T`.
extension ReaderAPI {
    func authorized(_ request: WebRequest, keys: ServeKeys) -> Bool {
        guard let header = request.header("Authorization") else { return false }
        let parts = header.split(separator: "=", maxSplits: 1)
        // verbatim: the Authorization scheme Google Reader clients send
        let scheme = "googlelogin auth"
        guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == scheme else { return false }
        return SessionBook.constantTimeEqual(String(parts[1]).trimmingCharacters(in: .whitespaces), keys.readerAuth)
    }

    /// `POST /accounts/ClientLogin` with `Email` and `Passwd` (form or query).
    func login(_ request: WebRequest, keys: ServeKeys) -> WebResponse {
        let fields = request.form + request.query
        guard let password = fields.first(where: { $0.0 == "Passwd" })?.1 else {
            return .text("Error=BadAuthentication\nInfo=Passwd is missing\n", status: 401)
        }
        switch checkPassword(password, request.client) {
        case .accepted:
            let token = keys.readerAuth
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
