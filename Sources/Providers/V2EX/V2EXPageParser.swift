import Aggregator
import Foundation

/// Parses V2EX HTML pages: topic lists (home/tab rows `div.cell.item`, node rows
/// `div.cell.from_<uid>.t_<tid>`), topic pages with replies, and the planes (node) list.
///
/// Dates come from `title="YYYY-MM-DD HH:MM:SS +08:00"` attributes when the page has them,
/// else from the relative text ("3 分钟前") resolved against the response's Date.
public struct V2EXPageParser: Sendable {
    public var provider: String
    /// The site base (`https://www.v2ex.com`) for item, member and node URLs.
    public var webURL: String
    /// When the server produced the page; relative dates count back from it.
    public var serverDate: Date

    public init(provider: String, webURL: String, serverDate: Date) {
        self.provider = provider
        self.webURL = webURL
        self.serverDate = serverDate
    }

    /// A topic list page: its title (`V2EX › Python`) and its rows as items.
    public func topicList(_ body: [UInt8], section: String) throws(ProviderError) -> (title: String?, items: [Item]) {
        let document = try open(body, section: section)
        let rows = (try? document.select(css: "div.cell.item, div.cell[class*=' t_']")) ?? []
        var items: [Item] = []
        for row in rows {
            guard let link = (try? row.first(css: "span.item_title a")) ?? nil, let href = link.attribute("href"),
                let id = Self.topicID(href)
            else { continue }
            let author = ((try? row.first(css: "strong > a")) ?? nil).map(\.trimmedText).flatMap { $0.isEmpty ? nil : $0 }
            let node = (try? row.first(css: "a.node")) ?? nil
            var extra: [String: String] = [:]
            if let name = node?.attribute("href").flatMap(Self.nodeName) { extra["node"] = name }
            if let avatar = ((try? row.first(css: "img.avatar")) ?? nil)?.attribute("src").map(absolute), WebURL.isHTTP(avatar) {
                extra["avatar"] = avatar
            }
            let replies = ((try? row.first(css: "a.count_livid")) ?? nil).flatMap { Int($0.trimmedText) } ?? 0
            items.append(
                Item(
                    provider: provider, section: section, id: String(id), kind: .topic, title: ItemText.title(link.trimmedText),
                    url: "\(webURL)/t/\(id)", author: author.map { Author(name: $0, url: "\(webURL)/member/\($0)") },
                    published: date(in: row) ?? serverDate, metrics: Metrics(replies: replies), extra: extra))
        }
        if items.isEmpty, rows.isEmpty, ((try? document.select(css: "#Main")) ?? []).isEmpty {
            throw ProviderError.unexpectedPayload(detail: localized("not a V2EX topic list (no #Main, no topic rows)"))
        }
        return (pageTitle(document), items)
    }

    /// A topic page: the topic, then its replies (`/t/<id>#r_<reply id>`).
    public func topicPage(_ body: [UInt8], topicID: Int, section: String) throws(ProviderError) -> [Item] {
        let document = try open(body, section: section)
        guard let heading = (try? document.select(css: "div.header h1").first) ?? nil else {
            throw ProviderError.unexpectedPayload(detail: localized("not a V2EX topic page (no div.header h1)"))
        }
        let title = ItemText.title(heading.trimmedText)
        let header = (try? document.select(css: "div.header").first) ?? nil
        let byline = (try? header?.first(css: "small.gray")) ?? nil
        let author = ((try? byline?.first(css: "a[href^='/member/']")) ?? nil)?.trimmedText
        let node = ((try? header?.first(css: "a[href^='/go/']")) ?? nil)?.attribute("href").flatMap(Self.nodeName)
        let contents = (try? document.select(css: "div.topic_content")) ?? []
        let content = contents.map(\.innerHTML).joined(separator: "\n<hr/>\n")
        let replyCells = (try? document.select(css: "div.cell[id^='r_']")) ?? []
        var views: Int?
        if let text = byline?.trimmedText, let range = text.range(of: #"(\d+) 次点击"#, options: .regularExpression) {
            views = Int(text[range].split(separator: " ")[0])
        }
        var extra: [String: String] = [:]
        if let node { extra["node"] = node }
        let topic = Item(
            provider: provider, section: section, id: String(topicID), kind: .topic, title: title, url: "\(webURL)/t/\(topicID)",
            author: author.map { Author(name: $0, url: "\(webURL)/member/\($0)") }, summary: ItemText.summary(content),
            content: content.isEmpty ? nil : content, published: byline.flatMap { date(in: $0) } ?? serverDate,
            metrics: Metrics(replies: replyCells.count, views: views), extra: extra)
        let replies = replyCells.compactMap { cell -> Item? in
            guard let replyID = cell.attribute("id")?.dropFirst(2), Int(replyID) != nil else { return nil }
            let name = ((try? cell.first(css: "strong > a")) ?? nil)?.trimmedText
            let body = ((try? cell.first(css: "div.reply_content")) ?? nil)?.innerHTML ?? ""
            let floor = ((try? cell.first(css: "span.no")) ?? nil)?.trimmedText
            var replyExtra = ["topic": String(topicID)]
            if let floor { replyExtra["floor"] = floor }
            return Item(
                provider: provider, section: section, id: "reply/\(replyID)", kind: .reply, title: "Re: \(title)",
                url: "\(webURL)/t/\(topicID)#r_\(replyID)", author: name.map { Author(name: $0, url: "\(webURL)/member/\($0)") },
                summary: ItemText.summary(body), content: body, published: date(in: cell) ?? serverDate, extra: replyExtra)
        }
        return [topic] + replies
    }

    /// One node of the planes page.
    public struct PlaneNode: Sendable, Equatable {
        public var plane: String
        public var name: String
        public var title: String

        public init(plane: String, name: String, title: String) {
            self.plane = plane
            self.name = name
            self.title = title
        }
    }

    /// Every node on the planes page (`/planes`), grouped by plane in page order.
    public func planes(_ body: [UInt8]) throws(ProviderError) -> [PlaneNode] {
        let document = try open(body, section: "planes")
        var nodes: [PlaneNode] = []
        for box in (try? document.select(css: "div.box")) ?? [] {
            guard let header = (try? box.first(css: "div.header")) ?? nil else { continue }
            let subtitle = ((try? header.first(css: "span.fr")) ?? nil)?.trimmedText ?? ""
            var plane = header.trimmedText
            if !subtitle.isEmpty, let range = plane.range(of: subtitle, options: .backwards) { plane.removeSubrange(range) }
            plane = plane.trimmingCharacters(in: .whitespaces)
            for link in (try? box.select(css: "a.item_node")) ?? [] {
                guard let name = link.attribute("href").flatMap(Self.nodeName) else { continue }
                nodes.append(PlaneNode(plane: plane, name: name, title: link.trimmedText))
            }
        }
        return nodes
    }

    /// Parses the page and refuses sign-in forms and CDN challenges before anything is read.
    func open(_ body: [UInt8], section: String) throws(ProviderError) -> MarkupDocument {
        let document: MarkupDocument
        do {
            document = try MarkupDocument.html(body)
        } catch {
            throw ProviderError.unexpectedPayload(detail: "\(error)")
        }
        try V2EXPageCheck.check(document)
        return document
    }

    func pageTitle(_ document: MarkupDocument) -> String? {
        guard let title = ((try? document.select(xpath: "//title").first) ?? nil)?.trimmedText, title.contains("›") else {
            let tab = ((try? document.select(css: "a.tab_current").first) ?? nil)?.trimmedText
            return tab.map { "V2EX › \($0)" }
        }
        return TerminalText.sanitize(title)
    }

    /// The publication time in `node`: a `title` timestamp, else relative text in its byline.
    func date(in node: MarkupNode) -> Date? {
        if let stamp = ((try? node.first(css: "span[title]")) ?? nil)?.attribute("title"),
            let date = UpstreamDate.parse(stamp, relativeTo: serverDate)
        {
            return date
        }
        if let ago = ((try? node.first(css: "span.ago")) ?? nil)?.trimmedText, let date = UpstreamDate.parse(ago, relativeTo: serverDate) {
            return date
        }
        let info = ((try? node.first(css: "span.topic_info, span.small.fade")) ?? nil)?.text ?? node.text
        for segment in info.components(separatedBy: CharacterSet(charactersIn: "•·")) {
            var text = segment.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\u{A0}")))
            if text.hasPrefix("at ") { text.removeFirst(3) }
            if let range = text.range(of: " at ") { text = String(text[range.upperBound...]) }
            if let date = UpstreamDate.parse(text, relativeTo: serverDate) { return date }
        }
        return nil
    }

    /// `//cdn…` and `/path` made absolute against the site.
    func absolute(_ link: String) -> String {
        if link.hasPrefix("//") { return "https:" + link }
        if link.hasPrefix("/") { return webURL + link }
        return link
    }

    /// The topic id in `/t/<id>#reply5` or `https://www.v2ex.com/t/<id>`.
    static func topicID(_ href: String) -> Int? {
        guard let range = href.range(of: "/t/") else { return nil }
        return Int(href[range.upperBound...].prefix { $0.isNumber })
    }

    /// The node name in `/go/<name>`.
    static func nodeName(_ href: String) -> String? {
        guard let range = href.range(of: "/go/") else { return nil }
        let name = href[range.upperBound...].prefix { $0 != "?" && $0 != "#" && $0 != "/" }
        return name.isEmpty ? nil : String(name)
    }
}

/// Recognizes pages that are not the content asked for: V2EX's sign-in form and CDN challenges.
enum V2EXPageCheck {
    static func check(_ document: MarkupDocument) throws(ProviderError) {
        let signin =
            ((try? document.select(css: "form[action='/signin'] input[type=password], form[action$='/signin'] input[type=password]")) ?? [])
        if !signin.isEmpty {
            throw ProviderError.needsSignIn(
                detail: localized("V2EX answered with its sign-in form; this section is login-only or needs a token (token_env)"))
        }
        let title = ((try? document.select(xpath: "//title").first) ?? nil)?.trimmedText.lowercased() ?? ""
        // verbatim: matched against the page, not a message
        let challenge = ((try? document.select(css: "#challenge-form, #cf-challenge-running, div.cf-browser-verification")) ?? [])
        // verbatim: matched against the page, not a message
        if !challenge.isEmpty || title.contains("just a moment") || title.contains("attention required") {
            throw ProviderError.blocked(detail: localized("blocked by V2EX's CDN (a challenge page instead of content)"))
        }
    }
}
