// Fuzz target: the report containers through libarchive as the import reads them — a gzip stream (Apple) and a zip
// with one CSV (Google), streamed from a file with the size and ratio limits that stop a zip bomb. Built and run by
// Benchmarks/fuzz/run.sh.
import Archive
import Foundation

/// The scratch file each input is written to (the readers stream from a file, as the import does).
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-archive-\(getpid())").path

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArchive(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    guard FileManager.default.createFile(atPath: scratch, contents: bytes) else { return 0 }
    let limits = ArchiveLimits(maxBytes: 1 << 22, maxRatio: 200, ratioFloor: 1 << 16)
    if size > 1, data[0] == 0x1F, data[1] == 0x8B {
        _ = try? CompressedReader.streamGzip(path: scratch, compressedSize: size, limits: limits) { _ in }
    } else {
        _ = try? CompressedReader.streamZipMember(path: scratch, compressedSize: size, limits: limits, member: { name, index in
            if index > 0 || !name.lowercased().hasSuffix(".csv") { throw CancellationError() }
        }, chunk: { _ in })
    }
    return 0
}
