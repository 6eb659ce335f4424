import Aggregator
import Foundation

/// Subscriptions managed from apps: quick add, subscribe, unsubscribe, rename, and OPML
/// out and in, each an atomic providers.json edit through the session.
extension ReaderAPI {
    /// Follows the address of `subscription/quickadd` (`quickadd=`) as `aggr add` does.
    ///
    /// Answered as FreshRSS answers: the stream added, or `numResults` 0 and the error.
    func quickAdd(_ request: WebRequest, keys: ServeKeys) async -> WebResponse {
        if let refusal = checkActionToken(request, keys: keys) { return refusal }
        guard let given = (request.form + request.query).first(where: { $0.0 == "quickadd" })?.1, !given.isEmpty else {
            return .text(localized("quickadd: name the address to follow\n"), status: 400)
        }
        let address = given.hasPrefix("feed/") ? String(given.dropFirst(5)) : given
        var fields: [(String, String)]
        do {
            let added = try await session.follow(address, discovery: FeedDiscovery(http: session.http))
            let title = try session.subscriptions().first { $0.provider == added.provider && $0.key == added.section }?.title
            fields = [
                ("streamId", ReaderStream.subscriptionID(provider: added.provider, section: added.section)),
                ("streamName", session.title(of: added, stored: title)),
            ]
        } catch {
            fields = [("error", SecretRedactor.redactURLs(in: "\(error)"))]
        }
        return json { writer in
            writer.beginObject()
            writer.key("numResults")
            writer.integer(fields.first?.0 == "error" ? 0 : 1)
            writer.key("query")
            writer.string(SecretRedactor.redact(url: address))
            for (key, value) in fields {
                writer.key(key)
                writer.string(value)
            }
            writer.endObject()
        }
    }

    /// Subscribes, unsubscribes or renames the subscriptions `subscription/edit` names.
    ///
    /// `ac=subscribe` (`s=feed/<address>`), `unsubscribe` or `edit` (`t=` renames) for
    /// every `s`. A subscription's folder is its provider, so moving it to another label
    /// (`a=`, `r=`) is refused with the reason.
    func editSubscription(_ request: WebRequest, keys: ServeKeys) async -> WebResponse {
        if let refusal = checkActionToken(request, keys: keys) { return refusal }
        let form = request.form + request.query
        let streams = form.filter { $0.0 == "s" }.map(\.1)
        let action = form.first { $0.0 == "ac" }?.1 ?? "edit"
        guard !streams.isEmpty else { return .text(localized("s: name the subscription\n"), status: 400) }
        do {
            switch action {
            case "subscribe":
                for stream in streams {
                    let address = stream.hasPrefix("feed/") ? String(stream.dropFirst(5)) : stream
                    let added = try await session.follow(address, discovery: FeedDiscovery(http: session.http))
                    if let title = form.first(where: { $0.0 == "t" })?.1, !title.isEmpty { try session.rename(added, to: title) }
                }
            case "unsubscribe":
                for name in try subscriptionNames(streams) { try session.unfollow(name) }
            case "edit":
                let names = try subscriptionNames(streams)
                // Already in its folder (a=) or not in that one (r=): nothing to do.
                let moves =
                    form.filter { $0.0 == "a" }.map { (ReaderStream($0.1), true) }
                    + form.filter { $0.0 == "r" }.map { (ReaderStream($0.1), false) }
                for case (.label(let folder)?, let adding) in moves where names.contains(where: { ($0.provider == folder) != adding }) {
                    return .text(
                        localized(
                            "a subscription's folder is its provider (\(names.map(\.provider).joined(separator: ", "))): aggr cannot ")
                            + (adding ? localized("move it to \"\(folder)\"") : localized("take it out of \"\(folder)\""))
                            + localized("; a view in providers.json groups subscriptions\n"),
                        status: 400)
                }
                if let title = form.first(where: { $0.0 == "t" })?.1 {
                    for name in names { try session.rename(name, to: title) }
                }
            default:
                return .text(localized("ac: \"\(action)\" is not subscribe, unsubscribe or edit\n"), status: 400)
            }
        } catch let error as ReaderRequestError {
            return .text("\(error.message)\n", status: 400)
        } catch {
            return .text(SecretRedactor.redactURLs(in: "\(error)") + "\n", status: 400)
        }
        return .text("OK", status: 200)
    }

    /// The subscriptions `streams` name (`feed/<provider>/<section>`), each configured.
    func subscriptionNames(_ streams: [String]) throws(ReaderRequestError) -> [SubscriptionName] {
        let configuration = session.configuration
        return try streams.map { text throws(ReaderRequestError) in
            guard case .subscription(let provider, let section)? = ReaderStream(text),
                configuration.provider(id: provider)?.sections.contains(where: { $0.key == section }) == true
            else { throw ReaderRequestError(localized("s: \"\(text)\" is no subscription of \(configuration.file)")) }
            return SubscriptionName(provider: provider, section: section)
        }
    }

    /// `subscription/import`: the OPML document in the body; every feed not followed yet
    /// is added.
    func importSubscriptions(_ request: WebRequest, keys: ServeKeys) -> WebResponse {
        if let refusal = checkActionToken(request, keys: keys) { return refusal }
        // The OPML is the body, or (as some apps post it) a form field.
        let body = request.body.first == UInt8(ascii: "<") ? request.body : Array((request.field("opml") ?? "").utf8)
        do {
            let added = try session.importSubscriptions(opml: body, file: localized("the posted OPML"))
            return .text("OK: \(added.count) feed\(added.count == 1 ? "" : "s") added\n", status: 200)
        } catch {
            return .text(SecretRedactor.redactURLs(in: "\(error)") + "\n", status: 400)
        }
    }
}
