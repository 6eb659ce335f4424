/// A fast fingerprint of a response body (64-bit FNV-1a, hex).
///
/// It notices an unchanged body from servers that send no validators; it is not for security.
public enum BodyHash {
    public static func hex(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let text = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
