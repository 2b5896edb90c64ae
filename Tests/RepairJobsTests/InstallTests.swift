import Foundation
import Testing

/// An installation as the RUNBOOK makes one: `Tests/Harness/install-test.sh` runs `make install`'s copy step on the
/// test build's jobs into a temporary PREFIX, applies deploy/postgres/roles.sql to a fresh database, and runs the
/// installed `migrate` (as iap_owner), `nightly` against the store simulator, `build-reports` and `close-period` of the
/// last full month (as iap_job) from `/` with the source tree hidden by a tmpfs in a private mount namespace. Each must
/// exit 0 and the close's snapshot must hold every report file.
@Suite(.serialized) struct InstallTests {
    @Test(.timeLimit(.minutes(10))) func anInstalledPipelineRunsWithoutTheSourceTree() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let bin = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        try #require(FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("nightly").path),
                     "build the jobs first (make test does)")
        try #require(getuid() == 0, "the install test hides the source tree with unshare --mount, which needs root")
        let work = URL(fileURLWithPath: "/tmp").appendingPathComponent("iap-install-test-\(getpid())")
        defer { try? FileManager.default.removeItem(at: work) }
        let process = Process()
        process.executableURL = root.appendingPathComponent("Tests/Harness/install-test.sh")
        process.arguments = [bin.path, work.path]
        process.currentDirectoryURL = root
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let errorsRead = Thread.detachNewThreadReading(stderr)
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let errors = errorsRead()
        #expect(process.terminationStatus == 0, "\(output)\n\(errors)")
        let summary = output.split(separator: "\n").last { $0.hasPrefix("install-test ok ") }.map(String.init) ?? ""
        #expect(!summary.isEmpty, "\(output)\n\(errors)")
        for job in ["build-reports", "close-period", "migrate", "nightly"] {
            #expect(summary.contains(job), "\(job) did not succeed: \(summary)")
        }
    }
}

extension Thread {
    /// Reads `pipe` to its end on another thread (so a full stderr pipe cannot stall the child); the returned
    /// function waits for and returns the text.
    static func detachNewThreadReading(_ pipe: Pipe) -> () -> String {
        final class Box: @unchecked Sendable { var text = ""; let done = DispatchSemaphore(value: 0) }
        let box = Box()
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread {
            box.text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
            box.done.signal()
        }
        return { box.done.wait(); return box.text }
    }
}
