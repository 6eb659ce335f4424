public enum AggregatorVersion { public static let current = "0.1.0" }
