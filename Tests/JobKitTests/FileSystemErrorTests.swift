import Foundation
import JobKit
import Testing

/// File-system errors name the operation, the path and the system's reason; an output folder is checked up front.
@Suite struct FileSystemErrorTests {
    @Test func aFullDiskNamesTheFile() throws {
        let handle = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        defer { try? handle.close() }
        #expect {
            try FileSystemError.perform("write", "/dev/full") { try handle.write(contentsOf: Data(repeating: 1, count: 1 << 16)) }
        } throws: { error in
            "\(error)" == "cannot write /dev/full: \(String(cString: strerror(ENOSPC)))"
        }
    }

    @Test func aCocoaErrorIsDescribedWithItsPathAndReason() {
        let error = CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: "/srv/out/mrr.csv", "errno": EROFS])
        #expect(FileSystemError.describe(error) == "cannot write /srv/out/mrr.csv: \(String(cString: strerror(EROFS)))")
        let read = CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: "/srv/in/rates.csv"])
        #expect(FileSystemError.describe(read) == "cannot read /srv/in/rates.csv: \(String(cString: strerror(ENOENT)))")
    }

    @Test func anUnwritableOutputFolderIsAUsageErrorNamingIt() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("fs-error-\(getpid())")
        try? FileManager.default.removeItem(at: base)
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        let file = base.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let out = file.appendingPathComponent("out")
        #expect {
            try OutputFolder.requireWritable(out, option: "--out")
        } throws: { error in
            guard let error = error as? JobError, error.exitCode == .usageOrConfiguration else { return false }
            return "\(error)".contains("--out: cannot create the folder \(out.path): ")
        }
        // A folder that exists and is writable passes, and is left as it was.
        try OutputFolder.requireWritable(base, option: "--out")
        #expect(try FileManager.default.contentsOfDirectory(atPath: base.path) == ["a-file"])
    }
}
