// Fuzz target: the report containers through libarchive — gzip (Apple) and zip with one CSV (Google), with the
// size and ratio limits that stop a zip bomb. Built and run by Benchmarks/fuzz/run.sh.
import Archive
import StoreExports

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArchive(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let limits = ArchiveLimits(maxBytes: 1 << 22, maxRatio: 200, ratioFloor: 1 << 16)
    if size > 1, bytes[0] == 0x1F, bytes[1] == 0x8B {
        _ = try? ReportArchive.gunzip(bytes, file: "fuzz.txt.gz", limits: limits)
    } else {
        _ = try? ReportArchive.singleCSV(bytes, file: "fuzz.zip", limits: limits)
    }
    return 0
}
