import Foundation

/// Runs a checking tool of the system (promtool, systemd-analyze) and collects what it printed.
enum ToolProcess {
    /// Runs `executable` with `arguments` (in `folder` when given); returns its exit status and its stdout and stderr.
    static func run(_ executable: String, _ arguments: [String], in folder: URL? = nil) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
