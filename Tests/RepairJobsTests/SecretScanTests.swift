import Foundation
import Testing

/// The whole demo pipeline on a small world leaves no secret in what it writes: `Tests/Harness/secret-scan.sh`
/// runs it (with the world's report files to import and a drift textfile folder), then build-reports, close-period and
/// explain, and scans every log line, JSON summary, output file and period_snapshot row for private key material,
/// bearer tokens, JWTs and the world's raw purchase tokens.
@Suite(.serialized) struct SecretScanTests {
    @Test(.timeLimit(.minutes(5))) func theDemoPipelineWritesNoSecret() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let bin = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        try #require(FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("nightly").path),
                     "build the jobs first (make test does)")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("secret-scan-\(getpid())")
        defer { try? FileManager.default.removeItem(at: work) }
        let process = Process()
        process.executableURL = root.appendingPathComponent("Tests/Harness/secret-scan.sh")
        process.arguments = [bin.path, work.path]
        process.currentDirectoryURL = root
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output)\n\(errors)")
        let summary = try #require(output.split(separator: "\n").last { $0.hasPrefix("secret-scan ") }.map(String.init), "\(output)\n\(errors)")
        func figure(_ name: String) -> Int {
            summary.split(separator: " ").first { $0.hasPrefix(name + "=") }.flatMap { Int($0.dropFirst(name.count + 1)) } ?? -1
        }
        #expect(figure("hits") == 0, "\(summary)\n\(errors)")
        #expect(figure("files") >= 3 && figure("lines") >= 50 && figure("tokens") >= 10, "the scan read the pipeline's output: \(summary)")
        #expect(figure("snapshots") >= 4 && figure("explained") >= 2, "the scan read period_snapshot and explain: \(summary)")
    }
}
