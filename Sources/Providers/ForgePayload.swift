/// JSON shapes GitHub's REST API and Gitee's API v5 share (v5 follows GitHub's v3).
enum ForgePayload {
    /// An account as issues, releases and repositories embed it; `name` only on Gitee.
    struct User: Decodable {
        var login: String
        var name: String?
        var htmlUrl: String?
    }

    struct Label: Decodable {
        var name: String
    }

    /// A repository; `human_name` and `namespace` are Gitee's.
    struct Repository: Decodable {
        struct Namespace: Decodable {
            var path: String?
            var name: String?
            var htmlUrl: String?
        }
        var fullName: String
        var humanName: String?
        var namespace: Namespace?
        var htmlUrl: String
        var description: String?
        var language: String?
        var stargazersCount: Int?
        var forksCount: Int?
        var owner: User?
        var pushedAt: String?
        var updatedAt: String?
        var createdAt: String?
    }
}
