/// Unguessable values from the system's random source: session ids, form nonces and the
/// installation's secrets.
public enum RandomToken {
    /// `bytes` random bytes as lowercase hex (64 digits for the default 32).
    public static func hex(bytes: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes * 2)
        for _ in 0..<bytes {
            let byte = UInt8.random(in: 0...255, using: &generator)
            text += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
        }
        return String(decoding: text, as: UTF8.self)
    }
}
