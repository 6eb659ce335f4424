import Aggregator

/// The thread of a forge issue (GitHub, Gitee): item ids `<owner>/<repo>#<number>`, fetched
/// by the type's `issue/<owner>/<repo>/<number>` section.
enum ForgeIssueThread {
    /// The section for `item`'s thread when it is one of `kinds` with an issue id (a decimal
    /// number when `numeric`), else nil.
    static func section(for item: Item, kinds: Set<ItemKind>, numeric: Bool) -> String? {
        guard kinds.contains(item.kind), let hash = item.id.lastIndex(of: "#") else { return nil }
        let repo = item.id[..<hash]
        let number = item.id[item.id.index(after: hash)...]
        guard repo.split(separator: "/").count == 2, !number.isEmpty, !number.contains("/"), !numeric || Int(number) != nil else {
            return nil
        }
        return "issue/\(repo)/\(number)"
    }
}
