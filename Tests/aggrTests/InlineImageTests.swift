import AggregatorTestSupport
import Foundation
import TerminalFrontEnd
import XCTest

/// Decoding every format the reader shows, scaling, and both protocols' sequences.
final class InlineImageTests: XCTestCase {
    func pixel(_ image: PixelImage, _ x: Int, _ y: Int) -> [UInt8] {
        Array(image.pixels[((y * image.width + x) * 4)..<((y * image.width + x) * 4 + 4)])
    }

    func testDecodesPNGGIFJPEGAndWebP() throws {
        let png = try PixelImage.decode(TestImage.png(width: 3, height: 2) { x, y in [UInt8(x * 100), UInt8(y * 200), 7, 255] })
        XCTAssertEqual(png.width, 3)
        XCTAssertEqual(png.height, 2)
        XCTAssertEqual(pixel(png, 2, 1), [200, 200, 7, 255])

        let gif = try PixelImage.decode(TestImage.redGIF)
        XCTAssertEqual(gif, PixelImage(width: 1, height: 1, pixels: [255, 0, 0, 255]))

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("images-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for format in ["jpg", "webp"] {
            guard let bytes = try TestImage.converted(to: format, width: 16, height: 8, rgb: [0, 0, 255], in: directory) else {
                throw XCTSkip("cjpeg/cwebp not installed (scripts/bootstrap --test installs libjpeg-turbo-progs and webp)")
            }
            let image = try PixelImage.decode(bytes)
            XCTAssertEqual([image.width, image.height], [16, 8], format)
            let blue = pixel(image, 5, 5)
            XCTAssertTrue(blue[0] < 10 && blue[1] < 10 && blue[2] > 245 && blue[3] == 255, "\(format): \(blue)")
        }
    }

    func testDamagedUnknownAndHugeImagesAreRefusedWithAReason() {
        func reason(_ bytes: [UInt8]) -> String {
            do {
                _ = try PixelImage.decode(bytes)
                return "decoded"
            } catch {
                return error.description
            }
        }
        XCTAssertEqual(reason(Array("<html>".utf8)), "not a PNG, JPEG, GIF or WebP image")
        XCTAssertEqual(reason([]), "not a PNG, JPEG, GIF or WebP image")
        let png = TestImage.png(width: 4, height: 4) { _, _ in [1, 2, 3, 255] }
        XCTAssertTrue(reason(Array(png.prefix(60))).hasPrefix("damaged PNG"), reason(Array(png.prefix(60))))
        XCTAssertTrue(reason(Array(TestImage.redGIF.prefix(20))).hasPrefix("damaged GIF"))
        XCTAssertTrue(reason([0xFF, 0xD8, 0xFF, 0xE0, 0, 0]).hasPrefix("damaged JPEG"), reason([0xFF, 0xD8, 0xFF, 0xE0, 0, 0]))
        XCTAssertTrue(reason(Array("RIFF\0\0\0\0WEBPVP8 ".utf8)).hasPrefix("damaged WebP"))
        // 20,000 × 20,000 pixels: refused from the header, before any pixel is decoded.
        XCTAssertEqual(reason(TestImage.pngClaiming(width: 20_000, height: 20_000)), "PNG of 20000x20000 pixels is too large")
    }

    func testResizingAveragesAndFittingKeepsTheAspect() throws {
        let stripes = try PixelImage.decode(
            TestImage.png(width: 4, height: 2) { x, _ in x % 2 == 0 ? [0, 0, 0, 255] : [200, 100, 50, 255] })
        let half = stripes.resized(width: 2, height: 1)
        XCTAssertEqual(pixel(half, 0, 0), [100, 50, 25, 255])
        XCTAssertEqual(pixel(half, 1, 0), [100, 50, 25, 255])
        let wide = PixelImage(width: 800, height: 600, pixels: [])
        XCTAssertEqual(wide.cells(fitting: 60, 12, cell: (10, 20)).columns, 32, "12 rows × 20 px = 240 px high → 320 px wide")
        XCTAssertEqual(wide.cells(fitting: 60, 12, cell: (10, 20)).rows, 12)
        let tiny = PixelImage(width: 20, height: 20, pixels: [])
        XCTAssertEqual(tiny.cells(fitting: 60, 12, cell: (10, 20)).columns, 2, "never enlarged")
    }

    func testKittySequenceCarriesThePixelsInChunks() throws {
        let image = try PixelImage.decode(TestImage.png(width: 40, height: 40) { x, y in [UInt8(x), UInt8(y), 9, 255] })
        let sequence = KittyGraphics.place(image, columns: 4, rows: 2)
        let parts = sequence.components(separatedBy: "\u{1B}\\").filter { !$0.isEmpty }
        XCTAssertEqual(parts.count, 3, "6,400 bytes are 8,536 in base64: three chunks of at most 4,096")
        XCTAssertTrue(parts[0].hasPrefix("\u{1B}_Ga=T,f=32,s=40,v=40,c=4,r=2,C=1,q=2,m=1;"), parts[0].prefix(60).description)
        var payload = ""
        for (index, part) in parts.enumerated() {
            let body = part.split(separator: ";", maxSplits: 1)
            XCTAssertEqual(body[0].hasSuffix("m=0"), index == parts.count - 1)
            XCTAssertLessThanOrEqual(body[1].count, 4_096)
            payload += body[1]
        }
        XCTAssertEqual(Data(base64Encoded: payload).map { [UInt8]($0) }, image.pixels)
    }

    func testSixelSequenceHasThePaletteBandsAndRuns() throws {
        // 10 × 7: red on the left half, a transparent right half; two bands of six rows.
        let image = try PixelImage.decode(TestImage.png(width: 10, height: 7) { x, _ in x < 5 ? [255, 0, 0, 255] : [0, 0, 0, 0] })
        let sequence = SixelImage.encode(image)
        XCTAssertTrue(sequence.hasPrefix("\u{1B}P0;1;0q\"1;1;10;7#180;2;100;0;0#180"), sequence)
        XCTAssertTrue(sequence.hasSuffix("\u{1B}\\"))
        // Band one: all six rows (~ is 63 + 0b111111) for five columns, then nothing (?).
        XCTAssertTrue(sequence.contains("#180!5~!5?-"), sequence)
        // Band two: the seventh row only (@ is 63 + 1).
        XCTAssertTrue(sequence.contains("#180!5@!5?-"), sequence)
    }

    func testAutoPicksByTheTerminalsVariablesAndOffIsTheDefault() {
        XCTAssertNil(InlineImageProtocol.chosen(by: "off", environment: ["TERM": "xterm-kitty"]))
        XCTAssertEqual(InlineImageProtocol.chosen(by: "auto", environment: ["TERM": "xterm-kitty"]), .kitty)
        XCTAssertEqual(InlineImageProtocol.chosen(by: "auto", environment: ["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"]), .kitty)
        XCTAssertEqual(InlineImageProtocol.chosen(by: "auto", environment: ["TERM": "foot"]), .sixel)
        XCTAssertNil(InlineImageProtocol.chosen(by: "auto", environment: ["TERM": "xterm-256color"]))
        XCTAssertNil(InlineImageProtocol.chosen(by: "auto", environment: ["TERM": "xterm-kitty", "TMUX": "/tmp/tmux-0/default,1,0"]))
        XCTAssertEqual(InlineImageProtocol.chosen(by: "sixel", environment: ["TERM": "xterm"]), .sixel)
    }
}
