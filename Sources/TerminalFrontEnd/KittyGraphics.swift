import Foundation

/// The kitty graphics protocol: RGBA pixels sent in base64 chunks and placed at the cursor.
public enum KittyGraphics {
    /// Transmits and places `image` over `columns`×`rows` cells, the cursor left where it was;
    /// `q=2` keeps the terminal from answering.
    public static func place(_ image: PixelImage, columns: Int, rows: Int) -> String {
        let payload = Data(image.pixels).base64EncodedString()
        var chunks: [Substring] = []
        var start = payload.startIndex
        while start < payload.endIndex {
            let end = payload.index(start, offsetBy: 4_096, limitedBy: payload.endIndex) ?? payload.endIndex
            chunks.append(payload[start..<end])
            start = end
        }
        if chunks.isEmpty { chunks = [""] }
        var sequence = ""
        for (index, chunk) in chunks.enumerated() {
            let more = index < chunks.count - 1 ? 1 : 0
            let control =
                index == 0 ? "a=T,f=32,s=\(image.width),v=\(image.height),c=\(columns),r=\(rows),C=1,q=2,m=\(more)" : "m=\(more)"
            sequence += "\u{1B}_G\(control);\(chunk)\u{1B}\\"
        }
        return sequence
    }

    /// Removes every image this program placed.
    public static let deleteAll = "\u{1B}_Ga=d,d=A,q=2\u{1B}\\"
}
