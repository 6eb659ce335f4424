#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's environment variables, read straight from `environ` once.
///
/// `ProcessInfo.processInfo.environment` costs a start-up a good part of a millisecond
/// (Foundation's process-info object, then its dictionary); every command needs the
/// variables, so the front ends take them from here.
public enum ProcessEnvironment {
    /// Every variable, by name; the first of two with one name wins, as `getenv` answers.
    public static let variables: [String: String] = {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }()
}
