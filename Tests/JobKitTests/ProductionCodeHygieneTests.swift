import Foundation
import Testing

/// Production code (Sources/, Jobs/) has no crash paths: no fatalError, try!, as! or force unwraps.
@Suite struct ProductionCodeHygieneTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let exempt = ["StoreSimulator", "WorldGen"]

    static func productionFiles() -> [URL] {
        ["Sources", "Jobs"].flatMap { folder -> [URL] in
            let base = root.appendingPathComponent(folder)
            let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
            return (enumerator?.allObjects as? [URL] ?? []).filter {
                $0.pathExtension == "swift" && !exempt.contains(where: $0.path.contains)
            }
        }
    }

    @Test func noCrashPaths() throws {
        let files = Self.productionFiles()
        #expect(files.count > 10)
        // A `!` right after an identifier, `)` or `]` and before `.`, `)`, `,`, `[` or the line end is a force unwrap.
        let forceUnwrap = try Regex(#"[\w\)\]]!(?=[\.\)\],\[\s]|$)(?!=)"#)
        var findings: [String] = []
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
                let withoutStrings = code.replacing(try Regex(#""[^"]*""#), with: "\"\"")
                if withoutStrings.contains("fatalError(") || withoutStrings.contains("try!") || withoutStrings.contains("as! ")
                    || withoutStrings.contains(forceUnwrap) {
                    findings.append("\(file.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(findings.isEmpty, "\(findings.joined(separator: "\n"))")
    }
}
