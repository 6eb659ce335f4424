import Foundation

/// Views saved from a front end: on a database with users each user's own (the config's
/// views are everyone's), else in providers.json.
extension LibrarySession {
    /// How long the user's views, once read, stand before they are read again (another
    /// process may have saved one).
    static let ownViewsLifetime: TimeInterval = 2

    /// Where ``saveView(_:filter:)`` put a view.
    public enum ViewPlace: Sendable, Equatable {
        /// The user's own views in the database.
        case user(String)
        /// The `views` of providers.json, shared by everyone.
        case config(String)
    }

    /// The views of this session's user (none without a user directory).
    func ownViews() -> [NamedView] {
        guard let directory else { return [] }
        let now = Date()
        if let cached = state.withLock({ $0.ownViews }), now.timeIntervalSince(cached.read) < Self.ownViewsLifetime {
            return cached.views
        }
        let views: [NamedView]
        do {
            views = try directory.ownViews().map {
                NamedView(name: $0.name, expression: $0.expression, filter: try? FilterParser.parse($0.expression))
            }
        } catch {
            logger.warning("cannot read the views of \(directory.userName): \(error)")
            return state.withLock { $0.ownViews?.views ?? [] }
        }
        state.withLock { $0.ownViews = (views, now) }
        return views
    }

    /// Saves `expression` as view `name`.
    ///
    /// The view is the user's own on a database with users, else in providers.json. The
    /// name and the filter are checked first (a filter error says where, as `--where`'s do).
    @discardableResult
    public func saveView(_ name: String, filter expression: String) throws -> ViewPlace {
        guard ProviderIdentifier.isValid(name) else {
            throw ProviderEditError(localized("view name \"\(name)\" must match [a-z0-9][a-z0-9_-]*"))
        }
        _ = try FilterParser.parse(expression)
        if configuration.provider(id: name) != nil {
            throw ProviderEditError(localized("\"\(name)\" names a provider of \(configuration.file); give the view another name"))
        }
        if let directory {
            try directory.saveOwnView(name, expression: expression)
            state.withLock { $0.ownViews = nil }
            return .user(directory.userName)
        }
        try editViews { views throws(ProviderEditError) in
            if let index = views.firstIndex(where: { $0.key == name }) {
                views[index].value = .string(expression)
            } else {
                views.append(JSONMember(name, .string(expression)))
            }
        }
        return .config(configuration.file)
    }

    /// Removes the user's own view `name` when they have one; whether they had.
    func removeOwnView(_ name: String) throws -> Bool {
        guard let directory, try directory.removeOwnView(name) else { return false }
        state.withLock { $0.ownViews = nil }
        return true
    }

    /// Renames the user's own view `name` when they have one; whether they had.
    func renameOwnView(_ name: String, to newName: String) throws -> Bool {
        guard let directory else { return false }
        let views = try directory.ownViews()
        guard let view = views.first(where: { $0.name == name }) else { return false }
        guard ProviderIdentifier.isValid(newName) else {
            throw ProviderEditError(localized("view name \"\(newName)\" must match [a-z0-9][a-z0-9_-]*"))
        }
        guard !views.contains(where: { $0.name == newName }) else {
            throw ProviderEditError(localized("a view \"\(newName)\" exists already"))
        }
        try directory.saveOwnView(newName, expression: view.expression)
        _ = try directory.removeOwnView(name)
        state.withLock { $0.ownViews = nil }
        return true
    }
}

extension Configuration {
    /// This config with `own` views added, each replacing a view of the same name.
    func adding(_ own: [NamedView]) -> Configuration {
        guard !own.isEmpty else { return self }
        var merged = self
        for view in own {
            if let index = merged.views.firstIndex(where: { $0.name == view.name }) {
                merged.views[index] = view
            } else {
                merged.views.append(view)
            }
        }
        return merged
    }
}
