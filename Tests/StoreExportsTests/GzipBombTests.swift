import Foundation
import StoreExports
import TestSupport
import Testing

/// A gzip bomb is stopped by the ratio of what was read so far (issue 27, bounded memory), as a zip is.
struct GzipBombTests {
    /// 64 MiB of newlines (~64 KiB compressed) before 16 MiB that do not compress: over the whole input the ratio is
    /// 5, under any limit, so the old whole-input ratio let all 80 MiB into memory; over the bytes consumed so far it
    /// passes 200 within the bomb's first 17 MiB, and decompression stops there.
    @Test func aGzipBombIsStoppedWithinItsFirst17MiB() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "{ head -c 67108864 /dev/zero | tr '\\0' '\\n'; head -c 16777216 /dev/urandom; } | gzip -1"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let gz = [UInt8](pipe.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        #expect(gz.count > 16 << 20)
        do {
            _ = try ReportArchive.gunzip(gz, file: "Subscriber_85000000_20251103.txt.gz")
            Issue.record("the bomb was decompressed whole")
        } catch let error as StoreReportError {
            #expect(error.reason.contains("expands more than 200× its compressed size"), "\(error)")
            #expect(error.line > 16 << 20 && error.line <= 17 << 20, "\(error)")
        }
    }
}
