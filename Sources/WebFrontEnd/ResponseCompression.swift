import CZlib
import Foundation

/// Gzip for answers a client says it can read (`Accept-Encoding: gzip`): feeds, pages and
/// Reader API lists are text that shrinks to a fifth or less (a 550 KB feed went whole).
enum ResponseCompression {
    /// Bodies shorter than this go as they are: the gzip framing would eat the gain.
    static let smallestBody = 1_024

    /// `response` gzip-encoded when `request` accepts gzip and the body is text worth it,
    /// with `Vary: Accept-Encoding`; a strong ETag becomes weak, since the bytes differ
    /// from the identity encoding's (weak comparison still answers 304).
    static func apply(to response: WebResponse, for request: WebRequest) -> WebResponse {
        var response = response
        guard isCompressible(response) else { return response }
        response.headers.append(("Vary", "Accept-Encoding"))
        guard accepts(request.header("Accept-Encoding")), response.body.count >= smallestBody, let packed = gzip(response.body)
        else { return response }
        response.body = packed
        response.headers.append(("Content-Encoding", "gzip"))
        if let index = response.headers.firstIndex(where: { $0.0.lowercased() == "etag" }), response.headers[index].1.hasPrefix("\"") {
            response.headers[index].1 = "W/" + response.headers[index].1
        }
        return response
    }

    /// Whether `response` is text of a kind that compresses (HTML, CSS, JS, JSON, XML feeds).
    static func isCompressible(_ response: WebResponse) -> Bool {
        guard response.header("Content-Encoding") == nil, let type = response.header("Content-Type")?.lowercased() else { return false }
        return type.hasPrefix("text/") || type.contains("json") || type.contains("xml") || type.contains("javascript")
    }

    /// Whether an `Accept-Encoding` value admits gzip (`gzip`, `x-gzip` or `*`, not at `q=0`).
    static func accepts(_ header: String?) -> Bool {
        guard let header else { return false }
        for part in header.lowercased().split(separator: ",") {
            let fields = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let coding = fields.first, ["gzip", "x-gzip", "*"].contains(coding) else { continue }
            let quality = fields.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if quality > 0 { return true }
        }
        return false
    }

    /// `bytes` as one gzip member (RFC 1952) at zlib's level 6, or nil if zlib fails.
    static func gzip(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard aggr_deflate_gzip_init(&stream, 6) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeLast(output.count - Int(stream.total_out))
        return output
    }
}
