import Foundation

/// The class and id hints, roles and tag sets of Readability.js that the extractor weighs.
extension ArticleExtractor {

    static let unlikely = try! NSRegularExpression(
        pattern:
            "-ad-|ai2html|banner|breadcrumbs|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|yom-remote",
        options: .caseInsensitive)
    static let maybe = try! NSRegularExpression(pattern: "and|article|body|column|content|main|mathjax|shadow", options: .caseInsensitive)
    static let positive = try! NSRegularExpression(
        pattern: "article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story", options: .caseInsensitive)
    static let negative = try! NSRegularExpression(
        pattern:
            "-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget",
        options: .caseInsensitive)
    static let bylineHint = try! NSRegularExpression(pattern: "byline|author|dateline|writtenby|p-author", options: .caseInsensitive)
    static let videos = try! NSRegularExpression(
        pattern:
            "//(www\\.)?((dailymotion|youtube|youtube-nocookie|player\\.vimeo|v\\.qq|bilibili|live\\.bilibili)\\.com|(archive|upload\\.wikimedia)\\.org|player\\.twitch\\.tv)",
        options: .caseInsensitive)

    static func matches(_ regex: NSRegularExpression, _ text: String) -> Bool {
        regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    static let unlikelyRoles: Set<String> = ["menu", "menubar", "complementary", "navigation", "alert", "alertdialog", "dialog"]
    static let scored: Set<String> = ["section", "h2", "h3", "h4", "h5", "h6", "p", "td", "pre"]
    static let blocks: Set<String> = [
        "blockquote", "dl", "div", "img", "ol", "p", "pre", "table", "ul", "section", "article", "aside", "figure", "header", "footer",
        "h1", "h2", "h3", "h4", "h5", "h6", "hr", "form", "fieldset", "nav", "main", "address", "details", "video", "iframe", "canvas",
    ]
    static let phrasing: Set<String> = [
        "abbr", "audio", "b", "bdo", "br", "button", "cite", "code", "data", "datalist", "dfn", "em", "embed", "i", "img", "input", "kbd",
        "label", "mark", "math", "meter", "noscript", "object", "output", "progress", "q", "ruby", "samp", "script", "select", "small",
        "span", "strong", "sub", "sup", "textarea", "time", "var", "wbr", "a", "del", "ins", "font", "u", "s", "strike", "tt", "big",
    ]
}
