import Foundation

/// Labels users put on items: set and taken off, listed, renamed and removed.
extension LibrarySession {
    /// The most characters a label has.
    public static let longestLabel = 100

    /// Why `name` cannot be a label (empty, too long, control characters, a `/`), or nil.
    public func problem(withLabel name: String) -> String? {
        if name.allSatisfy(\.isWhitespace) { return localized("a label needs a name") }
        if name.count > Self.longestLabel { return localized("a label has at most \(Self.longestLabel) characters") }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "/" }) {
            return localized("a label cannot hold control characters or \"/\"")
        }
        let configuration = configuration
        if configuration.views.contains(where: { $0.name == name }) || configuration.provider(id: name) != nil {
            return localized("\"\(name)\" names a view or provider of \(configuration.file); give the label another name")
        }
        return nil
    }

    /// Puts label `name` on the items numbered `refs`, or takes it off; how many exist.
    @discardableResult
    public func setLabel(_ name: String, on refs: [Int64], _ labelled: Bool) throws -> Int {
        if labelled, let problem = problem(withLabel: name) { throw LabelError(problem) }
        return try storage.setLabel(name, on: refs, labelled)
    }

    /// The labels of each of `refs` that has any.
    public func labels(of refs: [Int64]) throws -> [Int64: [String]] { try storage.labels(of: refs) }

    /// Every label in use, with how many items carry it.
    public func labelUse() throws -> [(label: String, items: Int)] { try storage.labelUse() }

    /// Renames label `name` to `newName` on every item (merging when `newName` is in use).
    @discardableResult
    public func renameLabel(_ name: String, to newName: String) throws -> Int {
        if let problem = problem(withLabel: newName) { throw LabelError(problem) }
        return try storage.renameLabel(name, to: newName)
    }

    /// Takes label `name` off every item.
    @discardableResult
    public func removeLabel(_ name: String) throws -> Int { try storage.removeLabel(name) }
}

/// A label name that cannot be used, and why.
public struct LabelError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Views renamed and removed as apps rename and delete folders, each an atomic edit of
/// providers.json.
extension LibrarySession {
    /// Renames view `name` to `newName`: the user's own, else in providers.json, keeping
    /// its place and filter.
    public func renameView(_ name: String, to newName: String) throws {
        if try renameOwnView(name, to: newName) { return }
        try editViews { views throws(ProviderEditError) in
            guard let index = views.firstIndex(where: { $0.key == name }) else { throw ProviderEditError(localized("no view \"\(name)\"")) }
            guard !views.contains(where: { $0.key == newName }) else {
                throw ProviderEditError(localized("a view \"\(newName)\" exists already"))
            }
            views[index].key = newName
        }
    }

    /// Removes view `name`: the user's own, else from providers.json (its items stay where
    /// they are).
    public func removeView(_ name: String) throws {
        if try removeOwnView(name) { return }
        try editViews { views throws(ProviderEditError) in
            guard views.contains(where: { $0.key == name }) else { throw ProviderEditError(localized("no view \"\(name)\"")) }
            views.removeAll { $0.key == name }
        }
    }

    func editViews(_ edit: (inout [JSONMember]) throws(ProviderEditError) -> Void) throws {
        try editConfig(member: "views") { value throws(ProviderEditError) in
            var views: [JSONMember] = []
            if case .object(let existing)? = value { views = existing }
            try edit(&views)
            value = .object(views)
        }
    }

    /// Edits the top-level member `key` of providers.json (nil when absent; added at the end)
    /// and saves the file checked, as one edit among this process's.
    func editConfig(member key: String, _ edit: (inout JSONValue?) throws(ProviderEditError) -> Void) throws {
        try shared.configEdits.withLock { _ in
            let editor = ConfigEditor(path: configuration.file, registry: registry)
            guard case .object(var members) = try editor.document() else {
                throw ProviderEditError(localized("\(configuration.file) is not an object"))
            }
            let index = members.firstIndex { $0.key == key }
            var value = index.map { members[$0].value }
            try edit(&value)
            if let index, let value {
                members[index].value = value
            } else if let index {
                members.remove(at: index)
            } else if let value {
                members.append(JSONMember(key, value))
            }
            configuration = try editor.save(.object(members))
        }
    }
}
