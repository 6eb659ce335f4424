/// The version and home of this build, used in the User-Agent and `--version`.
public enum AggregatorVersion {
    public static let current = "0.1.0"
    public static let projectURL = "https://github.com/aggr-dev/aggr"
}
