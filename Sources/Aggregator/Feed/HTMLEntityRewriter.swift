internal import CLibXML2

/// Rewrites HTML named entities (`&eacute;`, `&nbsp;`) as numeric references so an XML
/// parser accepts them; feeds written by HTML-minded tools use them freely, and XML's
/// recovery mode would silently drop them.
enum HTMLEntityRewriter {
    private static let xmlEntities: Set<String> = ["amp", "lt", "gt", "quot", "apos"]

    /// `bytes` with every HTML-only named entity replaced, or `bytes` itself when there is none.
    static func rewrite(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(UInt8(ascii: "&")) else { return bytes }
        var output: [UInt8] = []
        var changed = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "&") else {
                output.append(byte)
                index += 1
                continue
            }
            var end = index + 1
            while end < bytes.count, end - index <= 32, isNameByte(bytes[end]) { end += 1 }
            if end < bytes.count, bytes[end] == UInt8(ascii: ";"), end > index + 1 {
                let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
                if !xmlEntities.contains(name), let entity = htmlEntityLookup(name) {
                    output += Array("&#\(entity.pointee.value);".utf8)
                    index = end + 1
                    changed = true
                    continue
                }
            }
            output.append(byte)
            index += 1
        }
        return changed ? output : bytes
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
