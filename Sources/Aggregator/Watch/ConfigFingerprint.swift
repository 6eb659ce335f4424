import Foundation

/// What identifies one version of a file cheaply: inode, size and modification time, so a
/// watch notices an edit (in place or by rename) with one `stat`.
struct ConfigFingerprint: Sendable, Equatable {
    var inode: UInt64 = 0
    var size: Int64 = -1
    var modified: Int64 = 0

    /// The fingerprint of the file at `path` now (all zero when it is missing).
    init(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }
}
