#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The order of byte strings as `COLLATE "C"` sorts them (the items CSV's order of order IDs): byte by byte, a
/// prefix before the longer string. By `memcmp`, which the merge of reconcile's two sorted streams calls a few times
/// per row.
enum ByteOrder {
    /// Negative when `a` sorts before `b`, zero when they are equal, positive after.
    static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let left = a.baseAddress, let right = b.baseAddress {
            let result = memcmp(left, right, common)
            if result != 0 { return Int(result) }
        }
        return a.count - b.count
    }

    /// The offset of the first `byte` in `bytes` at or after `from`, or nil.
    static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard from < bytes.count, let base = bytes.baseAddress,
              let found = memchr(base + from, Int32(byte), bytes.count - from) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }
}
