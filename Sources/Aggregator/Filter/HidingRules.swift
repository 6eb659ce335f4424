import Foundation

/// What a config hides from every listing: the global `timeline.exclude`, and each
/// provider's `include`/`exclude` applied to its own items only.
///
/// Filters hide, never delete: a listing that shows everything (`--all`) simply goes without.
public struct HidingRules: Sendable, Equatable {
    /// Items matching this are hidden, whatever their provider.
    public var exclude: FilterExpression?
    /// Per provider id: the expression its items must match to be shown.
    public var visible: [String: FilterExpression]

    /// The rules `configuration` sets.
    public init(_ configuration: Configuration) {
        exclude = configuration.timeline.excludeFilter
        visible = [:]
        for provider in configuration.providers {
            var shown: FilterExpression? = provider.includeFilter
            if let exclude = provider.excludeFilter { shown = shown.map { .and($0, .not(exclude)) } ?? .not(exclude) }
            if let shown { visible[provider.id] = shown }
        }
    }
}
