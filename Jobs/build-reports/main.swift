#if canImport(Glibc)
import Glibc
#endif
import JobKit
import Reporting

// Memory goes back to the system as soon as a large buffer is freed (decision, Benchmarks/results.md, "Time per
// history row at 0.2M, 1M and 2M"): glibc raises its mmap threshold after freeing a large block (the sort's 16 MiB
// run, the span batches), later large buffers then stay in the heap, and the peak RSS grew with the world (64, 106,
// 153 MiB at 0.2M, 1M, 2M subscriptions). A fixed threshold (`mallopt(M_MMAP_THRESHOLD, 128 KiB)`; M_MMAP_THRESHOLD
// is -3 in malloc.h, which Swift's Glibc module does not import, hence the lookup) keeps blocks of 128 KiB and more
// in mappings of their own: 74 MiB at 1M, the same wall time.
#if canImport(Glibc)
if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
    typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
    _ = unsafeBitCast(symbol, to: MallOpt.self)(-3, 128 << 10)
}
#endif

/// `build-reports`: the finance reports as CSV files and one XLSX workbook with charts.
JobRunner.main(BuildReports.definition())
