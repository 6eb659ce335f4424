import Foundation

/// The claim one `aggr watch` holds on its database: the single writer that refreshes it.
///
/// An advisory `flock` on `<database>.watch` beside the database, holding the owner's pid
/// and command (`1234 aggr serve`), so a refused second writer is told who holds it.
/// The kernel drops it when the process ends, however it ends, so a crash leaves no stale
/// claim. Other commands (`refresh`, `timeline`, `read`) do not take it.
public final class WatchLock: Sendable {
    /// Why the claim could not be taken.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Another process holds it; its pid and command when they could be read.
        case held(path: String, pid: Int32?, holder: String?)
        case unavailable(path: String, reason: String)

        public var description: String {
            switch self {
            case .held(let path, let pid, let holder):
                // verbatim: the lock's holder, a command name
                let command = holder ?? "aggr watch"
                let owner = pid.map { "\(command) (pid \($0))" } ?? command
                // verbatim: the lock's holder, a command name
                return command == "aggr watch"
                    ? localized("\(owner) is already watching this database (lock \(path)); stop it first or let it run")
                    : localized("\(owner) is already refreshing this database (lock \(path)); stop it first or let it run")
            case .unavailable(let path, let reason): return localized("cannot lock \(path): \(reason)")
            }
        }
    }

    /// The lock file.
    public let path: String
    private let descriptor: Int32

    /// Takes the claim for the database at `database` for `holder` (the command, such as
    /// `aggr serve`), or throws at once when it is held.
    // verbatim: the lock's holder, a command name
    public init(database: String, holder: String = "aggr watch") throws(Failure) {
        let path = database + ".watch"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .unavailable(path: path, reason: String(cString: strerror(errno))) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            let reason = String(cString: strerror(errno))
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = pread(descriptor, &buffer, buffer.count, 0)
            close(descriptor)
            guard busy else { throw .unavailable(path: path, reason: reason) }
            let text = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self).trimmingWhitespace() : ""
            let pid = text.split(separator: " ", maxSplits: 1).first.flatMap { Int32($0) }
            let rest = text.split(separator: " ", maxSplits: 1).dropFirst().first.map(String.init)
            throw .held(path: path, pid: pid, holder: rest.map { TerminalText.sanitize($0) })
        }
        let pid = Array("\(getpid()) \(holder)\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pwrite(descriptor, pid, pid.count, 0)
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}
