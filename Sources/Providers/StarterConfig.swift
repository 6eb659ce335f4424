/// The providers.json that `aggr init` writes.
///
/// It names the built-in sites, so it lives with their providers; the repository's own
/// providers.json is the same text, which a test keeps true.
public enum StarterConfig {
    public static let text = """
        {
          "providers": [
            { "id": "v2ex", "type": "v2ex", "sections": ["hot", "latest", "node/programmer", "node/apple"], "interval": "10m" },
            { "id": "github", "type": "github", "sections": ["releases/swiftlang/swift", "releases/groue/GRDB.swift", "trending/swift?since=daily"], "interval": "30m" },
            { "id": "gitee", "type": "gitee", "sections": ["featured", "releases/dromara/hutool"], "interval": "1h" },
            { "id": "dribbble", "type": "dribbble", "sections": ["popular?timeframe=week"], "interval": "2h" }
          ],
          "timeline": { "limit": 40 },
          "retention": { "max_items": 10000 }
        }

        """
}
