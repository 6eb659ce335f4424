/// Checking of one `providers[N]` entry.
extension ConfigReader {
    func provider(_ value: JSONValue, at path: String, registry: ProviderRegistry) throws(ConfigError) -> ProviderConfiguration {
        let entry = try members(value, at: path, allowed: ConfigLoader.providerKeys)
        func field(_ key: String) -> JSONValue? { entry.first { $0.key == key }?.value }

        guard let idValue = field("id") else { throw fail(path, "missing \"id\"") }
        let id = try string(idValue, at: "\(path).id")
        guard ProviderIdentifier.isValid(id) else {
            throw fail("\(path).id", localized("id \"\(id)\" must match [a-z0-9][a-z0-9_-]* (lowercase letters, digits, - and _)"))
        }
        guard let typeValue = field("type") else { throw fail(path, localized("missing \"type\" for provider \"\(id)\"")) }
        let typeName = try string(typeValue, at: "\(path).type")
        guard let type = registry.type(named: typeName) else {
            let hint =
                NearestName.suggestion(for: typeName, among: registry.typeNames).map { localized("did you mean \"\($0)\"?") }
                ?? localized("known types: \(registry.typeNames.joined(separator: ", "))")
            throw fail("\(path).type", localized("unknown type \"\(typeName)\" (\(hint))"))
        }
        let metadata = type.metadata
        var configuration = ProviderConfiguration(id: id, type: typeName, sections: [], file: file, keyPath: path)
        configuration.sections = try sections(field("sections"), at: path, metadata: metadata, id: id)
        if let options = field("options") {
            configuration.options = try self.options(options, at: "\(path).options", metadata: metadata)
        }
        if let value = field("api_url") { configuration.apiURL = try url(value, at: "\(path).api_url") }
        if let value = field("web_url") { configuration.webURL = try url(value, at: "\(path).web_url") }
        if let value = field("token_env") { configuration.tokenEnv = try tokenEnv(value, at: "\(path).token_env") }
        if let value = field("cookie_env") {
            configuration.cookieEnv = try tokenEnv(value, at: "\(path).cookie_env", secret: "cookie", example: "V2EX_COOKIE")
        }
        if let value = field("interval") { configuration.interval = try timeSpan(value, at: "\(path).interval") }
        if let value = field("limit") { configuration.limit = try integer(value, at: "\(path).limit", in: 1...1_000) }
        if let value = field("include") { (configuration.include, configuration.includeFilter) = try filter(value, at: "\(path).include") }
        if let value = field("exclude") { (configuration.exclude, configuration.excludeFilter) = try filter(value, at: "\(path).exclude") }
        if let value = field("enabled") {
            guard let flag = value.boolValue else { throw fail("\(path).enabled", localized("must be true or false")) }
            configuration.enabled = flag
        }
        if let value = field("titles") { configuration.titles = try titles(value, at: "\(path).titles", sections: configuration.sections) }
        if let value = field("full_text") {
            let at = "\(path).full_text"
            if let flag = value.boolValue {
                configuration.fullText = flag ? FullTextRule() : nil
            } else if case .object = value, let selectorValue = value["selector"] {
                let selector = try string(selectorValue, at: "\(at).selector")
                do {
                    _ = try CSSSelector.xpath(for: selector, relative: false)
                } catch {
                    throw fail("\(at).selector", "\(error)")
                }
                configuration.fullText = FullTextRule(selector: selector)
            } else {
                throw fail(at, "must be true, false or {\"selector\": \"article .post\"}")
            }
        }
        if let value = field("checkin") {
            guard let flag = value.boolValue else { throw fail("\(path).checkin", localized("must be true or false")) }
            guard metadata.support(for: .checkin) != nil else {
                throw fail("\(path).checkin", localized("\(metadata.displayName) has no daily check-in (\(metadata.whyAbsent(.checkin)))"))
            }
            configuration.checkin = flag
        }
        _ = try type.init(configuration: configuration)
        return configuration
    }

    /// `titles`: an object from section keys of this entry to non-empty names.
    func titles(_ value: JSONValue, at path: String, sections: [SectionSpec]) throws(ConfigError) -> [String: String] {
        guard case .object(let members) = value else {
            throw fail(path, "must be an object of section names, e.g. {\"hot\": \"V2EX hot\"}")
        }
        var titles: [String: String] = [:]
        for member in members {
            let title = try string(member.value, at: "\(path).\(member.key)")
            guard sections.contains(where: { $0.key == member.key }) else {
                throw fail(
                    "\(path).\(member.key)",
                    localized("no section \"\(member.key)\" in this entry (its sections: \(sections.map(\.key).joined(separator: ", ")))"))
            }
            guard !title.allSatisfy(\.isWhitespace) else { throw fail("\(path).\(member.key)", localized("must not be empty")) }
            titles[member.key] = title
        }
        return titles
    }

    func sections(_ value: JSONValue?, at path: String, metadata: ProviderMetadata, id: String) throws(ConfigError) -> [SectionSpec] {
        guard let value else {
            if !metadata.defaultSections.isEmpty {
                var defaults: [SectionSpec] = []
                for text in metadata.defaultSections {
                    do { defaults.append(try SectionSpec.parse(text, for: metadata)) } catch { throw fail(path, error.message) }
                }
                return defaults
            }
            throw fail(path, localized("missing \"sections\" for provider \"\(id)\" (e.g. [\"\(metadata.sections.first?.usage ?? "…")\"])"))
        }
        guard case .array(let entries) = value, !entries.isEmpty else {
            throw fail("\(path).sections", localized("must be a non-empty array of section strings"))
        }
        var result: [SectionSpec] = []
        for (index, entry) in entries.enumerated() {
            let sectionPath = "\(path).sections[\(index)]"
            let text = try string(entry, at: sectionPath)
            let spec: SectionSpec
            do {
                spec = try SectionSpec.parse(text, for: metadata)
            } catch {
                throw fail(sectionPath, error.message)
            }
            guard !result.contains(where: { $0.key == spec.key }) else {
                throw fail(sectionPath, localized("section \"\(text)\" is listed twice"))
            }
            result.append(spec)
        }
        return result
    }

    func options(_ value: JSONValue, at path: String, metadata: ProviderMetadata) throws(ConfigError) -> [String: JSONValue] {
        let names = metadata.options.map(\.name)
        guard case .object(let members) = value else { throw fail(path, localized("must be an object, not \(value.typeName)")) }
        var result: [String: JSONValue] = [:]
        for member in members {
            let optionPath = "\(path).\(member.key)"
            guard let spec = metadata.options.first(where: { $0.name == member.key }) else {
                let hint =
                    NearestName.suggestion(for: member.key, among: names).map { localized("did you mean \"\($0)\"?") }
                    ?? (names.isEmpty
                        ? localized("type \(metadata.typeName) takes no options")
                        : localized("valid options: \(names.joined(separator: ", "))"))
                throw fail(path, localized("unknown option \"\(member.key)\" for type \(metadata.typeName) (\(hint))"))
            }
            let problem: String?
            switch (spec.valueType, member.value) {
            case (.integer, .number(let number)):
                problem = spec.valueType.problem(with: number.description)
            case (.boolean, .bool), (.object, .object): problem = nil
            case (.stringList, .array(let elements)):
                problem =
                    elements.isEmpty || elements.contains { $0.stringValue == nil } ? localized("must be a non-empty list of strings") : nil
            case (.string, .string(let text)), (.choice, .string(let text)), (.url, .string(let text)):
                problem = spec.valueType.problem(with: text)
            default: problem = localized("must be \(spec.valueType.label), not \(member.value.typeName)")
            }
            if let problem { throw fail(optionPath, problem) }
            result[member.key] = member.value
        }
        return result
    }

    func tokenEnv(
        _ value: JSONValue, at path: String, secret: String = "token", example: String = "GITHUB_TOKEN"
    ) throws(ConfigError) -> String {
        let name = try string(value, at: path)
        // Never echo the value here: a user who pasted the token itself must not see it in logs.
        guard name.range(of: "^[A-Za-z_][A-Za-z0-9_]{0,63}$", options: .regularExpression) != nil,
            !Self.looksLikeSecret(name)
        else {
            throw fail(path, localized("must name an environment variable (such as \(example)), not hold the \(secret) itself"))
        }
        return name
    }

    /// Heuristic for a pasted token: long, mixed-case or digit-rich, unlike VARIABLE_NAMES.
    static func looksLikeSecret(_ text: String) -> Bool {
        let knownPrefixes = ["ghp_", "gho_", "ghs_", "ghu_", "github_pat_", "glpat-"]
        if knownPrefixes.contains(where: text.hasPrefix) { return true }
        let lowercase = text.filter(\.isLowercase).count
        let digits = text.filter(\.isNumber).count
        return text.count >= 24 && lowercase > 0 && digits >= 4
    }
}

/// The rules for provider instance ids and view names.
public enum ProviderIdentifier {
    /// Whether `text` matches `[a-z0-9][a-z0-9_-]*`.
    public static func isValid(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, text.count <= 64 else { return false }
        func allowed(_ scalar: Unicode.Scalar, first: Bool) -> Bool {
            ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || (!first && (scalar == "-" || scalar == "_"))
        }
        return allowed(first, first: true) && text.unicodeScalars.dropFirst().allSatisfy { allowed($0, first: false) }
    }
}
