#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a small local file (a config, a message catalog) whole, up to a limit, through the
/// system calls.
///
/// Foundation's `FileManager` answers the size through a dictionary of attributes whose
/// values are bridged objects; each bridging cast makes the Swift runtime scan every
/// protocol conformance of the binary, which a command pays before it does anything.
public enum LocalFile {
    /// What reading a file gave.
    public enum Reading: Equatable, Sendable {
        /// The file's bytes.
        case bytes([UInt8])
        /// The file is over the limit: its size in bytes (for a stream, what was read before stopping).
        case tooLarge(Int)
        /// Nothing is at the path (or a folder on the way is missing).
        case missing
        /// The file is there but cannot be read: a folder, or not allowed.
        case unreadable
    }

    /// Reads the file at `path` whole; a file of more than `limit` bytes is refused unread
    /// when its size is known, and a stream (a pipe) is read only until it passes the limit.
    public static func contents(of path: String, limit: Int) -> Reading {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT != S_IFDIR else { return .unreadable }
        let size = Int(status.st_size)
        if size > limit { return .tooLarge(size) }
        var bytes = [UInt8]()
        bytes.reserveCapacity(size > 0 ? size : 4096)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                return .unreadable
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes.count > limit ? .tooLarge(bytes.count) : .bytes(bytes)
    }
}
