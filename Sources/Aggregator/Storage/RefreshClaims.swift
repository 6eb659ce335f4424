import Foundation

/// What a claim on providers' refresh gave (``TimelineStorage/claimRefresh(_:worker:now:until:)``):
/// the providers this worker may fetch now, and until when each of the others is another's.
public struct RefreshClaims: Sendable, Equatable {
    public var granted: Set<String>
    public var heldElsewhere: [String: Date]

    public init(granted: Set<String> = [], heldElsewhere: [String: Date] = [:]) {
        self.granted = granted
        self.heldElsewhere = heldElsewhere
    }
}

/// The name one process's refreshes claim work under: host and pid, unique among the
/// processes sharing a database.
public enum RefreshWorker {
    public static let name: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        let bytes = gethostname(&buffer, buffer.count) == 0 ? buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) } : []
        let host = bytes.isEmpty ? "localhost" : String(decoding: bytes, as: UTF8.self)
        return "\(host) \(getpid())"
    }()
}
