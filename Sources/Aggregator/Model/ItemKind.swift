/// What an item is upstream: a forum topic, a release, a shot, and so on.
public enum ItemKind: String, Sendable, Hashable, CaseIterable, Codable {
    case topic, reply, release, issue, pull, commit, event, repo, shot, notification, post
}
