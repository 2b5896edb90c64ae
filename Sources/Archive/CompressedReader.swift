import CArchive

/// Reads compressed files through libarchive as streams — a gzip stream (`streamGzip`), or the one regular file of a
/// zip (`streamZipMember`, `streamZipMemberPipelined`) — within `ArchiveLimits`, so a zip bomb is stopped before it
/// fills memory. There is no in-memory reader: a report is never unwrapped whole.
public enum CompressedReader {
    /// Why compressed input could not be read: the member being read (nil for the container itself) and libarchive's
    /// or the limit's reason (the reader knows how far its own reading got).
    public struct Failure: Error, CustomStringConvertible {
        /// The zip member's path, nil for a gzip stream or the container itself.
        public let member: String?
        /// What went wrong.
        public let reason: String

        /// `member: reason`.
        public var description: String { (member.map { $0 + ": " } ?? "") + reason }
    }

    static func message(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "libarchive error"
    }
}
