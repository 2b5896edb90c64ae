import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What identifies one version of a file on disk: device, inode, size and modification time (nanoseconds). Taken
/// before a report file is read and again after, so a file rewritten, replaced or still growing while it was read is
/// refused instead of being imported as a mixture of two versions.
struct FileStamp: Equatable, CustomStringConvertible {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modifiedNanoseconds: Int64

    /// The stamp of `path` (following symlinks), or nil when it cannot be read (`errno` names why).
    static func of(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStamp(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                         modifiedNanoseconds: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }

    var description: String { "\(size) bytes, inode \(inode), modified \(modifiedNanoseconds) ns" }
}
