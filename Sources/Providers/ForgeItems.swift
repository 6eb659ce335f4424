import Aggregator
import Foundation

/// Items for what code forges (GitHub, Gitee) have in common: releases and repositories.
struct ForgeItems {
    var provider: String
    var section: String

    /// A release titled "<repo name> <release name or tag>", its notes as the summary.
    func release(
        id: Int, repo: String, tag: String, name: String?, notes: String?, url: String, author: Author?, published: Date?, prerelease: Bool
    ) -> Item {
        let repoName = repo.split(separator: "/").last.map(String.init) ?? repo
        let label = name.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 } ?? tag
        return Item(
            provider: provider, section: section, id: "release/\(id)", kind: .release, title: ItemText.title("\(repoName) \(label)"),
            url: url,
            author: author, summary: ItemText.summary(MarkdownText.plainText(notes ?? "")), content: notes,
            published: published ?? Date(timeIntervalSince1970: 0), tags: prerelease ? ["prerelease"] : [],
            extra: ["repo": repo, "tag": tag])
    }

    /// A repository with its stars, forks and language.
    func repository(
        fullName: String, title: String? = nil, url: String, description: String?, language: String?, stars: Int?, forks: Int?,
        owner: Author?, published: Date?, extra more: [String: String] = [:]
    ) -> Item {
        var extra = more.merging(["repo": fullName]) { $1 }
        if let language { extra["language"] = language }
        return Item(
            provider: provider, section: section, id: "repo/\(fullName)", kind: .repo, title: ItemText.title(title ?? fullName), url: url,
            author: owner, summary: ItemText.summary(description ?? ""), published: published ?? Date(timeIntervalSince1970: 0),
            metrics: Metrics(stars: stars, forks: forks), extra: extra)
    }
}
