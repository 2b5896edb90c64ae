import Foundation
import Testing

/// deploy/pipeline.env.example, the environment file template: it names every variable of the README's
/// configuration table and every variable the jobs read, holds secrets only as file paths, reads as a shell file
/// (iap-job.sh sources it) and points build-reports and close-period at the installed SQL and one output folder.
@Suite struct PipelineEnvironmentTests {
    static let template = DeployUnitsTests.deploy.appendingPathComponent("pipeline.env.example")

    /// `NAME` of every `NAME=value` line, commented (`#NAME=`: the default applies) or not.
    static func named(_ text: String) -> Set<String> {
        Set(text.split(separator: "\n").compactMap { line -> String? in
            let body = line.hasPrefix("#") ? line.dropFirst() : line[...]
            guard let equals = body.firstIndex(of: "="), body.first?.isUppercase == true else { return nil }
            let name = body[..<equals]
            return name.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" } ? String(name) : nil
        })
    }

    /// The backquoted variable names of README's "Configuration (environment variables)" table.
    static func readmeVariables() throws -> Set<String> {
        let readme = try String(contentsOf: RepositoryDocsTests.root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "## Configuration (environment variables)"))
        let table = readme[start.upperBound...].split(separator: "\n").drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        var names: Set<String> = []
        for row in table {
            let first = row.split(separator: "|").first ?? ""
            for part in first.split(separator: "`").enumerated() where part.offset % 2 == 1 {
                let word = String(part.element)
                if word.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" }) { names.insert(word) }
            }
        }
        return names
    }

    /// Every variable the production sources read through `JobEnvironment` (`optional("…")`, `require("…")`,
    /// `secretFromFile("…")`).
    static func sourceVariables() throws -> Set<String> {
        let sources = RepositoryDocsTests.root.appendingPathComponent("Sources")
        let pattern = try Regex(#"(?:optional|require|secretFromFile)\("([A-Z][A-Z0-9_]+)""#)
        var names: Set<String> = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: pattern) {
                if let name = match.output[1].substring { names.insert(String(name)) }
            }
        }
        return names
    }

    @Test func everyDocumentedAndEveryReadVariableIsInTheTemplate() throws {
        let text = try String(contentsOf: Self.template, encoding: .utf8)
        let named = Self.named(text)
        let readme = try Self.readmeVariables()
        #expect(readme.count > 25, "the README table was read: \(readme.sorted())")
        #expect(readme.subtracting(named).sorted() == [], "README variables missing from the template")
        let read = try Self.sourceVariables()
        #expect(read.contains("DRIFT_TEXTFILE_DIR"))
        #expect(read.subtracting(named).sorted() == [], "variables the jobs read, missing from the template")
    }

    @Test func secretsAreFilePathsAndTheFileReadsAsShell() throws {
        let text = try String(contentsOf: Self.template, encoding: .utf8)
        #expect(!Self.named(text).contains("PGPASSWORD"), "the password lives in PGPASSFILE")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "set -a; . \"$0\"; env", Self.template.path]
        process.environment = ["PATH": "/usr/bin:/bin"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        for (name, value) in values where name.hasSuffix("_FILE") || name.hasSuffix("_FILES") || name == "PGPASSFILE" {
            for path in value.split(separator: ",") { #expect(path.hasPrefix("/etc/iap/"), "\(name)=\(value): a file under /etc/iap") }
        }
        for (name, value) in values where ["KEY", "SECRET", "PASSWORD", "TOKEN"].contains(where: { name.contains($0) }) {
            #expect(name.hasSuffix("_FILE") || name.hasSuffix("_ID") || name.hasSuffix("_URL"), "\(name)=\(value) looks like a secret value")
        }
        #expect(values["PGUSER"] == "iap_job", "the jobs connect as the least-privilege role")
        #expect(values["REPORT_SQL_DIR"] == "/opt/iap/share/iap-pipeline/reports", "the SQL make install writes")
        #expect(values["REPORT_OUT_DIR"]?.hasPrefix("/var/lib/iap/") == true, "inside the units' StateDirectory")
        #expect(values["DRIFT_TEXTFILE_DIR"] == "/var/lib/prometheus/node-exporter")
    }
}
