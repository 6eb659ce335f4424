import Foundation

/// Small images made in memory for tests: PNG written here (stored zlib blocks), a GIF by
/// its bytes, JPEG and WebP through Debian's cjpeg and cwebp.
public enum TestImage {
    /// A `width`×`height` PNG whose pixel at (x, y) is `color(x, y)` as RGBA.
    public static func png(width: Int, height: Int, color: (Int, Int) -> [UInt8]) -> [UInt8] {
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)  // filter: none
            for x in 0..<width { raw += color(x, y) }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, raw.count - offset)
            let final: UInt8 = offset + count == raw.count ? 1 : 0
            zlib += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[offset..<(offset + count)]
            offset += count
        } while offset < raw.count
        zlib += bigEndian(adler32(raw))
        var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [8, 6, 0, 0, 0]  // 8 bits, RGBA, deflate, no filter, no interlace
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    /// A PNG whose header claims `width`×`height` pixels, with one row of data after it.
    public static func pngClaiming(width: Int, height: Int) -> [UInt8] {
        let small = png(width: 1, height: 1) { _, _ in [0, 0, 0, 255] }
        var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [8, 6, 0, 0, 0]
        // Signature, the claiming IHDR, then the small image's IDAT and IEND (IHDR is 25 bytes).
        return Array(small.prefix(8)) + chunk("IHDR", header) + Array(small.dropFirst(8 + 25))
    }

    /// A 1×1 GIF89a whose one pixel is red.
    public static let redGIF: [UInt8] = [
        0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x21, 0xF9, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2C, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02,
        0x02, 0x44, 0x01, 0x00, 0x3B,
    ]

    /// A `width`×`height` image of one colour as JPEG (cjpeg) or WebP (cwebp, lossless);
    /// nil when the tool is not installed.
    public static func converted(to format: String, width: Int, height: Int, rgb: [UInt8], in directory: String) throws -> [UInt8]? {
        let ppm = "\(directory)/source.ppm"
        var bytes = Array("P6\n\(width) \(height)\n255\n".utf8)
        for _ in 0..<(width * height) { bytes += rgb }
        try Data(bytes).write(to: URL(fileURLWithPath: ppm))
        let output = "\(directory)/converted.\(format)"
        let (tool, arguments) =
            format == "jpg"
            ? ("/usr/bin/cjpeg", ["-quality", "100", "-outfile", output, ppm])
            : ("/usr/bin/cwebp", ["-quiet", "-lossless", ppm, "-o", output])
        guard FileManager.default.isExecutableFile(atPath: tool) else { return nil }
        _ = try ToolOutput.run(tool, arguments)
        return FileManager.default.contents(atPath: output).map { [UInt8]($0) }
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
