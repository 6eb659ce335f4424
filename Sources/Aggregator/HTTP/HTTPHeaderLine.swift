/// One line of a response's header block, as libcurl hands it over (line end included).
package enum HTTPHeaderLine: Equatable {
    /// `HTTP/…`: a response begins (the first, or the next after a redirect or a `100`).
    case status
    /// `Name: value`, both without the spaces, tabs and line ends around them.
    case field(name: String, value: String)
    /// Anything else: the blank line that ends the block, a line without a colon.
    case other

    /// Reads `line` by its bytes (a `String` trimmed through Foundation twice a line cost a
    /// thirtieth of a refresh).
    package init(_ line: UnsafeBufferPointer<UInt8>) {
        let start = line.firstIndex { !Self.isBlank($0) } ?? line.endIndex
        let text = line[start...]
        if text.starts(with: "HTTP/".utf8) {
            self = .status
        } else if let colon = text.firstIndex(of: UInt8(ascii: ":")) {
            self = .field(name: Self.trimmed(text[..<colon]), value: Self.trimmed(text[(colon + 1)...]))
        } else {
            self = .other
        }
    }

    /// `bytes` as text without the spaces, tabs and line ends around it.
    private static func trimmed(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, isBlank(bytes[start]) { start += 1 }
        while end > start, isBlank(bytes[end - 1]) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }
}
