import Aggregator

/// The language a web request is answered in: `?lang=` (the page's language switch, which a
/// cookie then remembers), the `aggr_lang` cookie, the browser's `Accept-Language`, the
/// config's `"language"`, then the server's own.
///
/// Feeds and the reader APIs answer the same data whatever the language; only their
/// messages follow it.
struct WebLanguage {
    static let cookieName = "aggr_lang"

    /// The catalog to answer in.
    var catalog: MessageCatalog
    /// Headers the answer carries: the cookie when the switch was used, and `Vary`.
    var headers: [(String, String)]

    init(request: WebRequest, configured: String?) {
        let available = Localization.available
        // verbatim: header names
        var headers: [(String, String)] = [("Vary", "Accept-Language, Cookie")]
        var language: String?
        if let asked = request.parameter("lang"), let found = Language.match(asked, among: available) {
            language = found
            headers.append(("Set-Cookie", "\(Self.cookieName)=\(found); Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly"))
        }
        language = language ?? request.cookie(Self.cookieName).flatMap { Language.match($0, among: available) }
        language = language ?? request.header("Accept-Language").flatMap { Language.fromAcceptLanguage($0, among: available) }
        language = language ?? configured
        catalog = language.flatMap { try? Localization.catalog($0) } ?? Localization.current
        self.headers = headers
    }
}
