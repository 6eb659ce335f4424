import Aggregator
import Foundation

/// The json type's `options.sign`, checked at config load; the secret is read from its
/// environment variable at each fetch and never kept in the configuration.
struct RequestSigning: Sendable {
    static let keys = ["algorithm", "secret_env", "param", "timestamp_param", "include", "encoding", "header"]

    var algorithm: RequestSigner.Algorithm
    var secretVariable: String
    var parameter: String
    var timestampParameter: String?
    var include: [String]?
    var encoding: RequestSigner.Encoding
    var header: String?

    init(_ value: JSONValue, _ configuration: ProviderConfiguration) throws(ConfigError) {
        guard case .object(let members) = value else { throw configuration.error(at: "options.sign", localized("must be an object")) }
        for member in members where !Self.keys.contains(member.key) {
            let hint = NearestName.suggestion(for: member.key, among: Self.keys).map { localized(" (did you mean \"\($0)\"?)") } ?? ""
            throw configuration.error(
                at: "options.sign", localized("unknown key \"\(member.key)\"\(hint); valid: \(Self.keys.joined(separator: ", "))"))
        }
        func text(_ key: String) throws(ConfigError) -> String? {
            guard let value = value[key] else { return nil }
            guard let text = value.stringValue, !text.isEmpty else {
                throw configuration.error(at: "options.sign.\(key)", localized("must be a non-empty string"))
            }
            return text
        }
        let algorithmName = try text("algorithm") ?? ""
        guard let algorithm = RequestSigner.Algorithm(rawValue: algorithmName) else {
            throw configuration.error(
                at: "options.sign.algorithm",
                localized(
                    "must be one of \(RequestSigner.Algorithm.allCases.map(\.rawValue).joined(separator: ", ")) (got \"\(algorithmName)\")")
            )
        }
        self.algorithm = algorithm
        guard let variable = try text("secret_env"), variable.range(of: "^[A-Za-z_][A-Za-z0-9_]{0,63}$", options: .regularExpression) != nil
        else {
            throw configuration.error(
                at: "options.sign.secret_env", localized("must name the environment variable holding the secret (such as API_SECRET)"))
        }
        secretVariable = variable
        parameter = try text("param") ?? "sign"
        timestampParameter = try text("timestamp_param")
        let encodingName = try text("encoding") ?? "hex"
        guard let encoding = RequestSigner.Encoding(rawValue: encodingName) else {
            throw configuration.error(at: "options.sign.encoding", localized("must be hex or base64 (got \"\(encodingName)\")"))
        }
        self.encoding = encoding
        header = try text("header")
        if let list = value["include"] {
            guard case .array(let names) = list, !names.isEmpty, names.allSatisfy({ $0.stringValue != nil }) else {
                throw configuration.error(at: "options.sign.include", localized("must be a non-empty list of parameter names"))
            }
            include = names.compactMap(\.stringValue)
        }
    }

    /// The signer with the secret read from the environment.
    func signer(_ environment: [String: String], provider: String, section: String) throws(ProviderError) -> RequestSigner {
        guard let secret = environment[secretVariable], !secret.isEmpty else {
            throw ProviderError.needsSignIn(detail: localized("requests must be signed: set $\(secretVariable) to the API secret"))
        }
        return RequestSigner(
            algorithm: algorithm, secret: secret, parameter: parameter, timestampParameter: timestampParameter, include: include,
            encoding: encoding, header: header)
    }
}
