import Aggregator
import Foundation

/// What a signed-in V2EX member does through aggr, with the requests V2EX's own pages make:
/// the topic page's `once` token, then the reply form, the thank and favourite links, and
/// the daily mission's redeem link.
extension V2EXProvider {
    /// The actions V2EX allows a session cookie, and the ones it has no such thing for.
    static let actions = [
        ActionSupport(.reply, kinds: [.topic, .reply], needs: .cookie, summary: localized("reply to a topic (the topic page's form)")),
        ActionSupport(
            .thank, kinds: [.topic, .reply], needs: .cookie,
            confirmation: localized("thanking sends copper coins from your V2EX balance (10 for a reply) and cannot be undone"),
            summary: localized("thank a topic's author or a reply's (感谢)")),
        ActionSupport(.favourite, kinds: [.topic], needs: .cookie, undoable: true, summary: localized("favourite a topic (加入收藏)")),
        ActionSupport(
            .checkin, kinds: [], needs: .cookie, summary: localized("claim the daily sign-in reward (/mission/daily)"),
            dayZone: TimeZone(secondsFromGMT: 8 * 3_600)),
    ]
    static let absentActions: [ItemAction: String] = [
        .like: localized("V2EX has no likes: thank (感谢) is how a member says a post helped"),
        .star: localized("V2EX has no stars: favourite the topic instead"),
        .react: localized("V2EX has no reactions: thank (感谢) is the one there is"),
    ]

    public func perform(_ request: ActionRequest, context: ActionContext) async throws -> ActionOutcome {
        if request.action == .checkin { return try await checkin(context) }
        guard let item = request.item, let topic = Self.topicID(of: item) else {
            throw ActionError(localized("this item names no V2EX topic"))
        }
        switch request.action {
        case .reply:
            return try await reply(to: topic, text: request.text ?? "", context: context)
        case .thank:
            return try await thank(item, topic: topic, context: context)
        case .favourite:
            return try await favourite(topic: topic, undo: request.undo, context: context)
        default:
            throw ActionError(Self.metadata.whyAbsent(request.action))
        }
    }

    /// The topic an item belongs to: a topic's own id, a reply's `topic`.
    static func topicID(of item: Item) -> Int? {
        item.kind == .reply ? item.extra["topic"].flatMap { Int($0) } : Int(item.id)
    }

    /// The `once` token of topic `id`'s page, read signed in (a placeholder on a dry run).
    func once(topic id: Int, context: ActionContext) async throws -> String {
        guard let page = try await context.read("\(webURL)/t/\(id)", headers: [("Accept", "text/html")], signedIn: true) else {
            return "<once>"
        }
        guard let once = Self.once(in: page.body) else {
            throw ActionError(
                localized("the topic page carries no once token: signed out? refresh the cookie in $\(context.cookieVariable)"))
        }
        return once
    }

    /// The `once` token a V2EX page carries (the reply form's, `var once`, or a link's).
    public static func once(in body: [UInt8]) -> String? {
        let text = String(decoding: body, as: UTF8.self)
        for marker in ["id=\"once\" name=\"once\"", "name=\"once\""] {
            if let range = text.range(of: marker) {
                let head = text[..<range.lowerBound]
                if let value = head.range(of: "value=\"", options: .backwards) {
                    let digits = head[value.upperBound...].prefix { $0.isNumber }
                    if !digits.isEmpty { return String(digits) }
                }
            }
        }
        for marker in ["var once = \"", "once="] {
            if let range = text.range(of: marker) {
                let digits = text[range.upperBound...].prefix { $0.isNumber }
                if !digits.isEmpty { return String(digits) }
            }
        }
        return nil
    }

    /// A V2EX page's problem box (`<div class="problem">`) as one line, if it has one.
    public static func problem(in body: [UInt8]) -> String? {
        guard let document = try? MarkupDocument.html(body), let box = (try? document.select(css: "div.problem"))?.first else {
            return nil
        }
        let text = box.trimmedText.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        return text.isEmpty ? nil : TerminalText.sanitize(text)
    }

    /// Posts `text` as a reply to topic `id`, exactly as typed, and returns the replies the
    /// topic page then shows (the new one among them).
    func reply(to id: Int, text: String, context: ActionContext) async throws -> ActionOutcome {
        let once = try await once(topic: id, context: context)
        let form = "content=\(Self.formValue(text))&once=\(once)"
        let request = HTTPRequest(
            url: "\(webURL)/t/\(id)", method: "POST",
            headers: [
                ("Content-Type", "application/x-www-form-urlencoded"), ("Referer", "\(webURL)/t/\(id)"), ("Origin", webURL),
            ], body: Array(form.utf8))
        guard let response = try await context.send(request, signedIn: true) else {
            return ActionOutcome(message: localized("would reply to topic \(id)"))
        }
        if let problem = Self.problem(in: response.body) { throw ActionError(localized("V2EX refused the reply: \(problem)")) }
        let items =
            (try? V2EXPageParser(provider: configuration.id, webURL: webURL, serverDate: response.serverDate ?? context.now)
                .topicPage(response.body, topicID: id, section: "topic/\(id)")) ?? []
        return ActionOutcome(message: localized("replied to topic \(id)"), newItems: items)
    }

    /// Thanks a topic's author or a reply's (`POST /thank/topic|reply/<id>?once=`).
    func thank(_ item: Item, topic: Int, context: ActionContext) async throws -> ActionOutcome {
        let once = try await once(topic: topic, context: context)
        let target = item.kind == .reply ? "reply/\(item.id.dropFirst("reply/".count))" : "topic/\(topic)"
        let request = HTTPRequest(
            url: "\(webURL)/thank/\(target)?once=\(once)", method: "POST",
            headers: [("Referer", "\(webURL)/t/\(topic)"), ("Origin", webURL), ("X-Requested-With", "XMLHttpRequest")], body: [])
        guard let response = try await context.send(request, signedIn: true) else {
            return ActionOutcome(message: localized("would thank \(target)"))
        }
        let answer = try? JSONParser.parse(bytes: response.body)
        let message = answer?["message"]?.stringValue.map { TerminalText.sanitize($0) }
        if answer?["success"]?.boolValue == true { return ActionOutcome(message: "thanked \(target)") }
        if let message, message.contains("已经") || message.lowercased().contains("already") {
            return ActionOutcome(message: localized("already thanked \(target)"), alreadyDone: true)
        }
        throw ActionError(localized("V2EX refused the thanks: \(message ?? "no success in its answer")"))
    }

    /// Favourites topic `id` (or takes it back), checking the page it lands on says so.
    func favourite(topic id: Int, undo: Bool, context: ActionContext) async throws -> ActionOutcome {
        let once = try await once(topic: id, context: context)
        let verb = undo ? "unfavorite" : "favorite"
        let request = HTTPRequest(url: "\(webURL)/\(verb)/topic/\(id)?once=\(once)", headers: [("Referer", "\(webURL)/t/\(id)")])
        guard let response = try await context.send(request, signedIn: true) else {
            return ActionOutcome(message: localized("would \(verb) topic \(id)"))
        }
        let text = String(decoding: response.body, as: UTF8.self)
        let favourited = text.contains("/unfavorite/topic/\(id)")
        guard favourited != undo else {
            throw ActionError(localized("V2EX's page still shows topic \(id) as \(undo ? "favourited" : "not favourited")"))
        }
        return ActionOutcome(message: undo ? localized("unfavourited topic \(id)") : localized("favourited topic \(id)"))
    }

    /// Claims the daily sign-in reward: `/mission/daily`, then its redeem link; a reward
    /// claimed already today is a success.
    func checkin(_ context: ActionContext) async throws -> ActionOutcome {
        let mission = "\(webURL)/mission/daily"
        guard let page = try await context.read(mission, headers: [("Accept", "text/html")], signedIn: true) else {
            _ = try await context.read("\(mission)/redeem?once=<once>", headers: [("Referer", mission)], signedIn: true)
            return ActionOutcome(message: localized("would claim the daily reward"))
        }
        let text = String(decoding: page.body, as: UTF8.self)
        if text.contains("每日登录奖励已领取") {
            return ActionOutcome(message: localized("already claimed today"), alreadyDone: true, streak: Self.streak(in: text))
        }
        guard let range = text.range(of: "/mission/daily/redeem?once=") else {
            throw ActionError(localized("no redeem link on \(mission): signed out? refresh the cookie in $\(context.cookieVariable)"))
        }
        let once = text[range.upperBound...].prefix { $0.isNumber }
        guard
            let claimed = try await context.read(
                "\(mission)/redeem?once=\(once)", headers: [("Referer", mission), ("Accept", "text/html")], signedIn: true)
        else { return ActionOutcome(message: localized("would claim the daily reward")) }
        let after = String(decoding: claimed.body, as: UTF8.self)
        guard after.contains("已成功领取每日登录奖励") || after.contains("每日登录奖励已领取") else {
            throw ActionError(localized("V2EX did not confirm the reward: \(Self.problem(in: claimed.body) ?? "no 已成功领取 on the page")"))
        }
        return ActionOutcome(message: localized("claimed the daily reward"), streak: Self.streak(in: after))
    }

    /// The streak a mission page states (`已连续登录 12 天`).
    public static func streak(in text: String) -> Int? {
        guard let range = text.range(of: "已连续登录") else { return nil }
        let digits = text[range.upperBound...].drop { $0 == " " }.prefix { $0.isNumber }
        return Int(digits)
    }

    /// `text` as an `application/x-www-form-urlencoded` value, byte for byte.
    static func formValue(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "*"):
                encoded.append(Character(UnicodeScalar(byte)))
            case UInt8(ascii: " "): encoded.append("+")
            default: encoded += String(format: "%%%02X", byte)
            }
        }
        return encoded
    }
}
