import Foundation
import JobKit
import Testing

/// `--help` of every built job: no line wider than 80 columns, and an example that invokes the job; long option help
/// wraps under its column.
@Suite struct JobHelpTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()

    /// Runs the built `job --help`; returns its exit status and stdout.
    static func help(_ job: String) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = binaries.appendingPathComponent(job)
        process.arguments = ["--help"]
        process.environment = ["PATH": "/usr/bin:/bin"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test func everyJobsHelpFitsEightyColumnsAndShowsAnExample() throws {
        let jobs = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Jobs").path).sorted()
        #expect(jobs.count >= 16)
        for job in jobs {
            #expect(FileManager.default.isExecutableFile(atPath: Self.binaries.appendingPathComponent(job).path),
                    "build \(job) first (swift build --build-tests)")
            let (status, text) = try Self.help(job)
            #expect(status == 0, "\(job) --help")
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let wide = lines.filter { $0.count > JobHelp.width }
            #expect(wide.isEmpty, "\(job): lines over 80 columns:\n\(wide.joined(separator: "\n"))")
            let example = try #require(lines.firstIndex(of: "example:"), "\(job) --help has no example")
            #expect(lines.count > example + 2 && lines[example + 1].hasPrefix("  \(job)"), "\(job): the example runs \(job)")
            #expect(text.hasPrefix("\(job): "))
        }
    }

    @Test func wrapBreaksAtSpacesUnderTheIndent() {
        let lines = JobHelp.wrap("one two three four five six", indent: "    ", first: "  ", width: 14)
        #expect(lines == ["  one two", "    three four", "    five six"])
        #expect(JobHelp.wrap("averyveryverylongword x", indent: "  ", width: 10) == ["averyveryverylongword", "  x"])
    }

    @Test func aLongOptionHelpWrapsUnderItsColumn() {
        let definition = JobDefinition(name: "t", summary: "a test job", options: [
            .value("a-very-long-option-name", placeholder: "placeholder", help: "help that is long enough to need a second line of its own here"),
            .flag("x", help: "short"),
        ]) { _ in }
        let lines = definition.helpText.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.count <= 80 })
        let head = lines.firstIndex { $0.hasPrefix("  --a-very-long-option-name <placeholder>") } ?? 0
        #expect(lines[head] == "  --a-very-long-option-name <placeholder>", "a long option's help starts on the next line")
        #expect(lines[head + 1].hasPrefix(String(repeating: " ", count: 26) + "help that"))
        #expect(lines.contains("  --x                     short"))
        #expect(!lines.contains("example:"), "a job without an example shows none")
    }
}
