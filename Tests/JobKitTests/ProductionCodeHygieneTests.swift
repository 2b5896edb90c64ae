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

    /// The folders where money and store answers flow; a `try?` there may turn an error into a silent default.
    static let fallbackFreeFolders = ["Sources/GooglePlay", "Sources/AppStore", "Sources/RepairJobs", "Sources/BillingCore/Projection",
                                      "Sources/ProjectionStore", "Sources/StoreExports"]
    /// The genuine probes left on those paths (file, line content): each is preceded by a `// Probe:` comment that
    /// says why a failure there is not a loss. A new `try?` must be a typed error instead, or be added here.
    static let allowedProbes: Set<String> = [
        "GooglePlay/GooglePlayAPIError.swift: let decoded = try? JSONDecoder().decode(Envelope.self, from: body)",
        "GooglePlay/GoogleAccessTokenProvider.swift: guard let decoded = try? JSONDecoder().decode(TokenResponse.self, from: response.body) else {",
        "GooglePlay/GooglePlayClient+Call.swift: if expectsJSON, (try? JSONValue.parse(response.body)) == nil {",
        "AppStore/AppStoreAPIError.swift: let decoded = try? JSONDecoder().decode(Body.self, from: body)",
        "RepairJobs/ReplayEvents/InboundPayloads.swift: if let envelope = try? JSONDecoder().decode(PubSubPushEnvelope.self, from: data) {",
    ]

    @Test func noSilentTryOnMoneyAndStorePaths() throws {
        let tryQuestion = try Regex(#"\btry\?"#)
        var found: Set<String> = []
        var findings: [String] = []
        var scanned = 0
        for folder in Self.fallbackFreeFolders {
            let base = Self.root.appendingPathComponent(folder)
            let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
            for file in (enumerator?.allObjects as? [URL] ?? []) where file.pathExtension == "swift" {
                scanned += 1
                let relative = String(file.path.dropFirst(Self.root.appendingPathComponent("Sources").path.count + 1))
                let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                for (number, line) in lines.enumerated() {
                    let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
                    let withoutStrings = code.replacing(try Regex(#""[^"]*""#), with: "\"\"")
                    guard withoutStrings.contains(tryQuestion) else { continue }
                    let entry = "\(relative): \(line.trimmingCharacters(in: .whitespaces))"
                    let commented = lines[max(0, number - 3)..<number].contains { $0.contains("// Probe:") }
                    if Self.allowedProbes.contains(entry), commented {
                        found.insert(entry)
                    } else {
                        findings.append("\(relative):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))"
                                        + (Self.allowedProbes.contains(entry) ? " (allowed probe lost its `// Probe:` comment)" : ""))
                    }
                }
            }
        }
        #expect(scanned > 50)
        #expect(findings.isEmpty, "try? on a money or store path (use a typed error, or document a probe):\n\(findings.joined(separator: "\n"))")
        #expect(found == Self.allowedProbes, "allow-listed probes no longer present: \(Self.allowedProbes.subtracting(found).sorted())")
    }
}
