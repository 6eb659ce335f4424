import Foundation

/// Sixel graphics: the image quantized to a fixed palette and sent six pixel rows a band.
public enum SixelImage {
    /// The palette: a 6×6×6 colour cube, then 24 greys (indices 216–239).
    static let levels = [0, 51, 102, 153, 204, 255]

    /// The palette index nearest `red`, `green`, `blue`.
    static func index(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Int {
        func level(_ value: UInt8) -> Int { (Int(value) * 5 + 127) / 255 }
        let (r, g, b) = (level(red), level(green), level(blue))
        let cube = r * 36 + g * 6 + b
        // Near-greys take the finer grey ramp.
        let spread = max(red, green, blue) - min(red, green, blue)
        if spread < 12 {
            let grey = (Int(red) + Int(green) + Int(blue)) / 3
            return 216 + min(23, grey * 24 / 256)
        }
        return cube
    }

    /// The colour of palette `index` as sixel's percentages.
    static func percentages(_ index: Int) -> (Int, Int, Int) {
        if index >= 216 {
            let grey = ((index - 216) * 256 + 128) / 24 * 100 / 255
            return (grey, grey, grey)
        }
        return (levels[index / 36] * 100 / 255, levels[index / 6 % 6] * 100 / 255, levels[index % 6] * 100 / 255)
    }

    /// `image` as a sixel sequence; transparent pixels (alpha below half) are not drawn.
    public static func encode(_ image: PixelImage) -> String {
        let width = image.width
        var indices = [Int](repeating: -1, count: width * image.height)
        var used = Set<Int>()
        for pixel in 0..<(width * image.height) {
            let offset = pixel * 4
            guard image.pixels[offset + 3] >= 128 else { continue }
            let index = index(image.pixels[offset], image.pixels[offset + 1], image.pixels[offset + 2])
            indices[pixel] = index
            used.insert(index)
        }
        // P2=1: pixels not drawn stay as they were. Raster attributes give the size.
        var out = "\u{1B}P0;1;0q\"1;1;\(width);\(image.height)"
        for index in used.sorted() {
            let (r, g, b) = percentages(index)
            out += "#\(index);2;\(r);\(g);\(b)"
        }
        var bandTop = 0
        while bandTop < image.height {
            let bandRows = min(6, image.height - bandTop)
            var colours = Set<Int>()
            for row in 0..<bandRows {
                for x in 0..<width where indices[(bandTop + row) * width + x] >= 0 { colours.insert(indices[(bandTop + row) * width + x]) }
            }
            for (order, colour) in colours.sorted().enumerated() {
                if order > 0 { out += "$" }
                out += "#\(colour)"
                var run: (character: UInt8, count: Int)? = nil
                func flush() {
                    guard let current = run else { return }
                    let character = String(UnicodeScalar(current.character))
                    out += current.count > 3 ? "!\(current.count)\(character)" : String(repeating: character, count: current.count)
                }
                for x in 0..<width {
                    var bits: UInt8 = 0
                    for row in 0..<bandRows where indices[(bandTop + row) * width + x] == colour { bits |= 1 << row }
                    let character = 63 + bits
                    if run?.character == character {
                        run!.count += 1
                    } else {
                        flush()
                        run = (character, 1)
                    }
                }
                flush()
            }
            out += "-"
            bandTop += 6
        }
        return out + "\u{1B}\\"
    }
}
