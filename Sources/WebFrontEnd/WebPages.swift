import Aggregator
import Foundation

/// The web UI's pages as HTML text: every upstream string escaped, item HTML through
/// ``HTMLSanitizer``, no inline script or style (the Content-Security-Policy forbids them).
struct WebPages {
    var now: Date
    /// The session's CSRF token, put in every form.
    var csrf: String
    /// Whether a password protects the site (a sign-out button is shown).
    var passwordProtected: Bool
    /// Whether sign-in asks for a user name (the database has users with passwords).
    var asksUser = false
    /// The database user signed in, named beside the sign-out button.
    var user: String? = nil

    /// The page frame around `content`.
    func layout(title: String, header: String = "", content: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="\(Localization.current.language)"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="same-origin">
        <title>\(HTML.escape(title))</title>
        <link rel="stylesheet" href="/static/app.css?v=\(WebAssets.stylesheetVersion)">
        <link rel="alternate" type="application/atom+xml" title="aggr: all" href="/feeds/all.atom">
        <script src="/static/app.js?v=\(WebAssets.scriptVersion)" defer></script>
        </head><body>
        \(header)
        <main>
        \(content)
        </main>
        </body></html>
        """
    }

    /// The bar with search and filter boxes, and the tabs.
    func header(tabs: [(TimelineTab, Int)], current: TimelineTab, search: String?, filter: String?, unreadOnly: Bool) -> String {
        var html = "<header class=\"top\"><div class=\"bar\"><a class=\"brand\" href=\"/\">aggr</a>"
        html +=
            "<form method=\"get\" action=\"/\" role=\"search\"><input type=\"hidden\" name=\"tab\" value=\"\(HTML.escape(current.webParameter))\">"
        html +=
            "<input type=\"search\" name=\"q\" placeholder=\"\(HTML.escape(localized("Search")))\" value=\"\(HTML.escape(search ?? ""))\" aria-label=\"\(HTML.escape(localized("Search")))\">"
        html += "<button type=\"submit\">\(HTML.escape(localized("Search")))</button></form>"
        html +=
            "<form method=\"get\" action=\"/\" class=\"filter\"><input type=\"hidden\" name=\"tab\" value=\"\(HTML.escape(current.webParameter))\">"
        html +=
            "<input type=\"text\" name=\"where\" placeholder=\"\(HTML.escape(localized("Filter: kind = release and stars > 10")))\" value=\"\(HTML.escape(filter ?? ""))\" aria-label=\"\(HTML.escape(localized("Filter")))\">"
        if unreadOnly { html += "<input type=\"hidden\" name=\"unread\" value=\"1\">" }
        html += "<button type=\"submit\">\(HTML.escape(localized("Filter")))</button></form>"
        if passwordProtected {
            if let user { html += "<span class=\"user\">\(HTML.escape(user))</span>" }
            html +=
                "<form method=\"post\" action=\"/logout\"><input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\"><button type=\"submit\">\(HTML.escape(localized("Sign out")))</button></form>"
        }
        html += "</div>" + languageSwitch() + "<nav class=\"tabs\" aria-label=\"\(HTML.escape(localized("Tabs")))\">"
        for (tab, unread) in tabs {
            let link = HTML.link("/", [("tab", tab.webParameter), ("unread", unreadOnly ? "1" : nil)])
            let badge = unread > 0 ? "<span class=\"badge\">\(unread >= 1_000 ? "999+" : String(unread))</span>" : ""
            let currentClass = tab == current ? " class=\"current\" aria-current=\"page\"" : ""
            html +=
                "<a href=\"\(HTML.escape(link))\"\(currentClass) data-tab=\"\(HTML.escape(tab.webParameter))\">\(HTML.escape(tab.label))\(badge)</a>"
        }
        return html + "</nav></header>"
    }

    /// How many results a search page shows.
    static let searchLimit = 100

    /// A page of items: a grid when most carry an image, else a list.
    func timeline(
        items: [StoredItem], tab: TimelineTab, filterError: String?, search: String?, filter: String?, unreadOnly: Bool, next: String?,
        back: String
    ) -> String {
        var html = ""
        if let filterError { html += "<pre class=\"filter-error\" role=\"alert\">\(HTML.escape(filterError))</pre>" }
        html += "<div class=\"toolbar\"><span>"
        if let search {
            // Say what the list is: a search, how much it found, and the way back.
            let clear = HTML.link("/", [("tab", tab.webParameter), ("where", filter), ("unread", unreadOnly ? "1" : nil)])
            let shown = "\(items.count)\(items.count >= Self.searchLimit ? "+" : "")"
            let found = localized(
                "\(shown) match for “\(search)” in \(tab.label)", plural: "\(shown) matches for “\(search)” in \(tab.label)",
                count: items.count)
            html += "<span class=\"found\">\(HTML.escape(found))</span> · "
            html += "<a href=\"\(HTML.escape(clear))\">\(HTML.escape(localized("Clear the search")))</a> · "
        }
        let unreadLink = HTML.link("/", [("tab", tab.webParameter), ("q", search), ("where", filter), ("unread", unreadOnly ? nil : "1")])
        html += "<a href=\"\(HTML.escape(unreadLink))\">\(HTML.escape(unreadOnly ? localized("Show all") : localized("Unread only")))</a>"
        html += "</span>"
        if search == nil {
            html += "<form method=\"post\" action=\"/tab/read\"><input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\">"
            html += "<input type=\"hidden\" name=\"tab\" value=\"\(HTML.escape(tab.webParameter))\">"
            if let filter { html += "<input type=\"hidden\" name=\"where\" value=\"\(HTML.escape(filter))\">" }
            html +=
                "<input type=\"hidden\" name=\"back\" value=\"\(HTML.escape(back))\"><button type=\"submit\">\(HTML.escape(localized("Mark this tab read")))</button></form>"
        }
        html += "</div>"
        if items.isEmpty {
            html += "<p class=\"empty\">\(HTML.escape(search != nil ? localized("No matches.") : localized("Nothing here yet.")))</p>"
            return html
        }
        let withImages = items.filter { HTML.webURL($0.item.image) != nil }.count
        if withImages * 2 >= items.count {
            html += "<ol class=\"grid\">" + items.map { card($0, back: back) }.joined() + "</ol>"
        } else {
            html += "<ol class=\"items\">" + items.map { row($0, back: back, search: search) }.joined() + "</ol>"
        }
        if let next {
            let link = HTML.link("/", [("tab", tab.webParameter), ("where", filter), ("unread", unreadOnly ? "1" : nil), ("cursor", next)])
            html += "<p class=\"pager\"><a rel=\"next\" href=\"\(HTML.escape(link))\">\(HTML.escape(localized("Older →")))</a></p>"
        }
        return html
    }

    /// The classes naming an item's state: `read` or `unread`, and `saved` (the stylesheet marks it).
    func stateClasses(_ stored: StoredItem) -> String {
        (stored.isUnread ? "unread" : "read") + (stored.isSaved ? " saved" : "")
    }

    func row(_ stored: StoredItem, back: String, search: String? = nil) -> String {
        let state = stateClasses(stored)
        var html = "<li class=\"item \(state)\" data-ref=\"\(stored.ref)\"><span class=\"mark\" aria-hidden=\"true\"></span>"
        if let image = HTML.webURL(stored.item.image) {
            html += "<img class=\"thumb\" src=\"\(HTML.escape(image))\" alt=\"\" loading=\"lazy\" referrerpolicy=\"no-referrer\">"
        }
        html += "<div class=\"body\"><a class=\"title\" href=\"/item/\(stored.ref)\">\(HTML.escape(stored.item.title))</a>"
        html += meta(stored) + (search.map { snippet(stored, search: $0) } ?? "") + "</div>" + actions(stored, back: back) + "</li>"
        return html
    }

    func card(_ stored: StoredItem, back: String) -> String {
        let state = stateClasses(stored)
        var html = "<li class=\"card \(state)\" data-ref=\"\(stored.ref)\">"
        if let image = HTML.webURL(stored.item.image) {
            html +=
                "<a href=\"/item/\(stored.ref)\"><img src=\"\(HTML.escape(image))\" alt=\"\(HTML.escape(stored.item.title))\" loading=\"lazy\" referrerpolicy=\"no-referrer\"></a>"
        }
        html +=
            "<div class=\"body\"><a class=\"title\" href=\"/item/\(stored.ref)\">\(HTML.escape(stored.item.title))</a>\(meta(stored))</div>"
        return html + actions(stored, back: back) + "</li>"
    }

    /// The words around a search match in what the title does not show, the match in `<mark>`.
    func snippet(_ stored: StoredItem, search: String) -> String {
        guard let parts = SearchSnippet.parts(of: stored.item, query: search, width: 160) else { return "" }
        return "<p class=\"snippet\">\(HTML.escape(parts.head))<mark>\(HTML.escape(parts.match))</mark>\(HTML.escape(parts.tail))</p>"
    }

    /// Source, author, relative time and counts.
    func meta(_ stored: StoredItem) -> String {
        let item = stored.item
        var parts = [
            "<span class=\"source\"><img class=\"icon\" src=\"/favicons/\(HTML.escape(PercentEncoding.component(item.provider)))\" width=\"16\" height=\"16\" alt=\"\" loading=\"lazy\">\(HTML.escape(item.provider))\(stored.sectionTitle.map { " · " + HTML.escape($0) } ?? "")</span>"
        ]
        if let author = item.author?.name, !author.isEmpty { parts.append("<span class=\"author\">\(HTML.escape(author))</span>") }
        parts.append(
            "<time datetime=\"\(ISOTimestamp.format(item.published))\" title=\"\(ISOTimestamp.format(item.published))\">\(HTML.escape(RelativeTime.short(item.published, now: now)))</time>"
        )
        for phrase in item.metrics.phrases { parts.append("<span>\(HTML.escape(phrase))</span>") }
        return "<div class=\"meta\">" + parts.joined() + "</div>"
    }

    /// Read/unread and save/unsave buttons (forms that work without JavaScript).
    func actions(_ stored: StoredItem, back: String) -> String {
        let read = stored.readAt != nil
        let saved = stored.savedAt != nil
        var html = "<div class=\"actions\">"
        html += "<form class=\"mark-read\" method=\"post\" action=\"/item/\(stored.ref)/read\">\(hidden(back: back))"
        html +=
            "<input type=\"hidden\" name=\"state\" value=\"\(read ? "unread" : "read")\">\(toggle(done: read, localized("Mark unread"), localized("Mark read")))</form>"
        html += "<form class=\"mark-saved\" method=\"post\" action=\"/item/\(stored.ref)/save\">\(hidden(back: back))"
        html +=
            "<input type=\"hidden\" name=\"state\" value=\"\(saved ? "unsaved" : "saved")\">\(toggle(done: saved, localized("Unsave"), localized("Save")))</form>"
        return html + "</div>"
    }

    /// A state button showing `doneLabel` or `undoneLabel`; both ride along for the script,
    /// which flips the button without reloading (in the page's language).
    func toggle(done: Bool, _ doneLabel: String, _ undoneLabel: String) -> String {
        "<button type=\"submit\" data-done=\"\(HTML.escape(doneLabel))\" data-undone=\"\(HTML.escape(undoneLabel))\">"
            + HTML.escape(done ? doneLabel : undoneLabel) + "</button>"
    }

    func hidden(back: String) -> String {
        "<input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\"><input type=\"hidden\" name=\"back\" value=\"\(HTML.escape(back))\">"
    }

    /// One item: its content as safe HTML, its stored thread, and a button that fetches the
    /// thread when it is `fetchable` (with `threadProblem`, why the last try failed).
    func item(
        _ stored: StoredItem, thread: [StoredItem], fetchable: Bool = false, threadProblem: String? = nil, upstream: Upstream? = nil,
        article: Article? = nil, fullTextProblem: String? = nil
    ) -> String {
        let item = stored.item
        let state = stateClasses(stored)
        var html =
            "<article class=\"item-page \(state)\" data-ref-page=\"\(stored.ref)\"><p><a href=\"/\">← \(HTML.escape(localized("Timeline")))</a></p>"
        html += "<h1>\(HTML.escape(item.title))</h1>" + meta(stored)
        if let url = HTML.webURL(item.url) {
            html +=
                "<p><a href=\"\(HTML.escape(url))\" rel=\"noopener noreferrer\">\(HTML.escape(localized("Open on \(URL(string: url)?.host ?? localized("the site"))")))</a></p>"
        }
        html += actions(stored, back: "/item/\(stored.ref)")
        if let image = HTML.webURL(item.image) {
            html +=
                "<p><img class=\"shot\" src=\"\(HTML.escape(image))\" alt=\"\(HTML.escape(item.title))\" referrerpolicy=\"no-referrer\"></p>"
        }
        let body = item.content.map { HTMLSanitizer.sanitize($0, baseURL: item.url) } ?? "<p>\(HTML.escape(item.summary))</p>"
        if let article {
            // Sanitized when it was extracted; through the sanitizer again all the same.
            html +=
                "<p class=\"full-text-note\">\(HTML.escape(localized("Full text from the item's page")))"
                + (article.byline.map { " · " + HTML.escape(localized("by \($0)")) } ?? "")
                + " · <a href=\"/item/\(stored.ref)\">\(HTML.escape(localized("Show the feed's text")))</a></p>"
            html += "<div class=\"content full-text\">\(HTMLSanitizer.sanitize(article.content, baseURL: item.url))</div>"
        } else {
            html += "<div class=\"content\">\(body)</div>"
            if let fullTextProblem {
                html += "<p class=\"error\" role=\"alert\">\(HTML.escape(localized("Full text not read: \(fullTextProblem)")))</p>"
            }
            if WebURL.isHTTP(item.url) {
                html +=
                    "<form class=\"full-text\" method=\"post\" action=\"/item/\(stored.ref)/full\"><input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\">"
                    + "<button type=\"submit\">\(HTML.escape(localized("Full text")))</button></form>"
            }
        }
        if let upstream { html += self.upstream(stored, upstream) }
        if fetchable || threadProblem != nil {
            html += "<section class=\"thread-fetch\">"
            if let threadProblem {
                html += "<p class=\"error\" role=\"alert\">\(HTML.escape(localized("Replies not fetched: \(threadProblem)")))</p>"
            }
            if fetchable {
                html +=
                    "<form method=\"post\" action=\"/item/\(stored.ref)/thread\"><input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\">"
                    + "<button type=\"submit\">\(HTML.escape(localized("Fetch the replies")))</button></form>"
            }
            html += "</section>"
        }
        if !thread.isEmpty {
            html +=
                "<section class=\"thread\" id=\"thread\"><h2>\(HTML.escape(Metrics.phrase("\(thread.count)", counting: thread.count, "replies")))</h2>"
            for reply in thread {
                let content =
                    reply.item.content.map { HTMLSanitizer.sanitize($0, baseURL: reply.item.url) } ?? HTML.escape(reply.item.summary)
                html += "<div class=\"reply\" id=\"reply-\(reply.ref)\">\(meta(reply))<div class=\"content\">\(content)</div></div>"
            }
            html += "</section>"
        }
        return html + "</article>"
    }

    /// The sign-in form.
    func login(error: String?, next: String) -> String {
        var html = "<form class=\"login\" method=\"post\" action=\"/login\"><h1>aggr</h1>"
        if let error { html += "<p class=\"error\" role=\"alert\">\(HTML.escape(error))</p>" }
        html +=
            "<input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\"><input type=\"hidden\" name=\"next\" value=\"\(HTML.escape(next))\">"
        if asksUser {
            html +=
                "<input type=\"text\" name=\"user\" placeholder=\"\(HTML.escape(localized("User name")))\" autofocus autocomplete=\"username\" autocapitalize=\"none\" aria-label=\"\(HTML.escape(localized("User name")))\">"
        }
        let focus = asksUser ? "" : " autofocus"
        html +=
            "<input type=\"password\" name=\"password\" placeholder=\"\(HTML.escape(localized("Password")))\"\(focus) autocomplete=\"current-password\" aria-label=\"\(HTML.escape(localized("Password")))\">"
        return html + "<button type=\"submit\">\(HTML.escape(localized("Sign in")))</button></form>" + languageSwitch()
    }

    /// Links to every language with a catalog, each in its own name; the current one marked.
    ///
    /// A link sets the `aggr_lang` cookie (``WebLanguage``), so the choice holds on every page.
    func languageSwitch() -> String {
        let current = Localization.current.language
        var html = "<nav class=\"languages\" aria-label=\"\(HTML.escape(localized("Language")))\">"
        for language in Localization.available.sorted() {
            let name = (try? Localization.catalog(language))?.text("English", context: "the language's own name") ?? language
            let mark = language == current ? " aria-current=\"true\"" : ""
            html +=
                "<a href=\"?lang=\(HTML.escape(language))\" hreflang=\"\(HTML.escape(language))\" lang=\"\(HTML.escape(language))\"\(mark)>\(HTML.escape(name))</a>"
        }
        return html + "</nav>"
    }

    /// An error page.
    func problem(_ title: String, _ message: String) -> String {
        "<h1>\(HTML.escape(title))</h1><p>\(HTML.escape(message))</p><p><a href=\"/\">\(HTML.escape(localized("Back to the timeline")))</a></p>"
    }
}
