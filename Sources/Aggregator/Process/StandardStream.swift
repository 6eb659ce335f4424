#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard output or standard error, written through the system call.
///
/// Text goes out as its UTF-8 bytes, whole: a short write is continued, an interrupted one
/// retried. Foundation's `FileHandle` took the text as `Data`, whose initializer asks the
/// runtime whether the bytes are contiguous with a cast that scans every protocol
/// conformance of the binary — in every command, before its first line.
public struct StandardStream: Sendable {
    /// Standard output.
    public static let output = StandardStream(descriptor: 1)
    /// Standard error.
    public static let error = StandardStream(descriptor: 2)

    /// The file descriptor written to.
    public let descriptor: Int32

    /// The stream of an open file descriptor (a pipe, a file), left open by writes.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Writes `text`; a stream that refuses it (a closed pipe, a full disk) loses the rest.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            guard var next = bytes.baseAddress else { return }
            var left = bytes.count
            while left > 0 {
                let written = systemWrite(descriptor, next, left)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                next += written
                left -= written
            }
        }
    }
}

/// `write(2)`, under a name the method above does not hide.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
