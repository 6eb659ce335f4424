import CImage
import Foundation

/// An image as 8-bit RGBA pixels, decoded from PNG, JPEG, GIF (first frame) or WebP.
public struct PixelImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Rows top to bottom, four bytes (R, G, B, A) a pixel.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The most pixels an image may have (a 4096×4096 square): larger ones are refused
    /// before their pixels are decoded.
    public static let maximumPixels = 4_096 * 4_096

    /// Decodes `bytes`; the error's text says why an image cannot be shown.
    public static func decode(_ bytes: [UInt8]) throws(ImageError) -> PixelImage {
        var image = aggr_rgba_image()
        var reason = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer { buffer in
            aggr_image_decode(buffer.baseAddress, buffer.count, Int(maximumPixels), &image, &reason, reason.count)
        }
        guard status == 0, let pixels = image.pixels else {
            throw ImageError(String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { aggr_image_free(&image) }
        let count = Int(image.width) * Int(image.height) * 4
        return PixelImage(
            width: Int(image.width), height: Int(image.height), pixels: Array(UnsafeBufferPointer(start: pixels, count: count)))
    }

    /// This image resized to `width`×`height`, each target pixel the average of the source
    /// pixels it covers (so shrinking does not alias).
    public func resized(width newWidth: Int, height newHeight: Int) -> PixelImage {
        let newWidth = max(1, newWidth)
        let newHeight = max(1, newHeight)
        if newWidth == width && newHeight == height { return self }
        var result = [UInt8](repeating: 0, count: newWidth * newHeight * 4)
        for y in 0..<newHeight {
            let top = y * height / newHeight
            let bottom = max(top + 1, (y + 1) * height / newHeight)
            for x in 0..<newWidth {
                let left = x * width / newWidth
                let right = max(left + 1, (x + 1) * width / newWidth)
                var sums = (0, 0, 0, 0)
                for row in top..<bottom {
                    var index = (row * width + left) * 4
                    for _ in left..<right {
                        sums.0 += Int(pixels[index])
                        sums.1 += Int(pixels[index + 1])
                        sums.2 += Int(pixels[index + 2])
                        sums.3 += Int(pixels[index + 3])
                        index += 4
                    }
                }
                let area = (bottom - top) * (right - left)
                let target = (y * newWidth + x) * 4
                result[target] = UInt8(sums.0 / area)
                result[target + 1] = UInt8(sums.1 / area)
                result[target + 2] = UInt8(sums.2 / area)
                result[target + 3] = UInt8(sums.3 / area)
            }
        }
        return PixelImage(width: newWidth, height: newHeight, pixels: result)
    }

    /// The cells this image takes when fitted, aspect kept, into `columns`×`rows` cells of
    /// `cell` pixels; never more than it has pixels for.
    public func cells(fitting columns: Int, _ rows: Int, cell: (width: Int, height: Int)) -> (columns: Int, rows: Int) {
        let boxWidth = Double(columns * cell.width)
        let boxHeight = Double(rows * cell.height)
        let scale = min(boxWidth / Double(width), boxHeight / Double(height), 1)
        let pixelWidth = Double(width) * scale
        let pixelHeight = Double(height) * scale
        return (
            max(1, min(columns, Int((pixelWidth / Double(cell.width)).rounded()))),
            max(1, min(rows, Int((pixelHeight / Double(cell.height)).rounded())))
        )
    }
}

/// Why an image cannot be shown.
public struct ImageError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
