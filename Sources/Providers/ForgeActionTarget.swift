import Aggregator

/// What a forge action (GitHub, Gitee) acts on: an item's repository, its issue or pull
/// request, and the comment a reply is.
struct ForgeActionTarget {
    /// `owner/name`.
    var repo: String
    /// The issue's or pull request's number (Gitee's are strings such as `I4CE7W`).
    var number: String?
    /// The comment's id, when the item is a comment.
    var comment: String?
    /// The issue's title, for a stored comment's "Re: …".
    var title: String

    /// The target of `item`, or nil when it names no repository.
    init?(_ item: Item) {
        var repo = item.extra["repo"]
        if repo == nil, item.kind == .repo, item.id.hasPrefix("repo/") { repo = String(item.id.dropFirst(5)) }
        let issueID = item.kind == .reply ? item.extra["topic"] : ([.issue, .pull].contains(item.kind) ? item.id : nil)
        if let issueID, let hash = issueID.lastIndex(of: "#") {
            repo = repo ?? String(issueID[..<hash])
            number = String(issueID[issueID.index(after: hash)...])
        }
        guard let repo, repo.split(separator: "/").count == 2 else { return nil }
        self.repo = repo
        if item.kind == .reply, let note = item.id.range(of: "/note/") { comment = String(item.id[note.upperBound...]) }
        title = item.kind == .reply && item.title.hasPrefix("Re: ") ? String(item.title.dropFirst(4)) : item.title
    }

    /// The issue's number, or an error saying the item is no issue, pull request or comment.
    func issueNumber(for action: ItemAction) throws(ActionError) -> String {
        guard let number, !number.isEmpty else {
            throw ActionError(localized("\(action.rawValue) needs an issue, a pull request or a comment on one"))
        }
        return number
    }

    /// `text` as a JSON object's one string member `key`.
    static func jsonBody(_ key: String, _ text: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key(key)
        writer.string(text)
        writer.endObject()
        return Array(writer.output.utf8)
    }
}
