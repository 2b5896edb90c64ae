import Foundation
import Testing

/// The repository stands alone: every relative link in its Markdown resolves to a file in it, and no tracked text
/// refers to a document outside it (the old reference shelf, absolute paths of the machine it was written on).
@Suite struct RepositoryDocsTests {
    /// The repository root (this file is Tests/DocsTests/RepositoryDocsTests.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// Folders that hold build output, the private database or generated worlds, not repository content (paths
    /// relative to the root for the git-ignored output trees whose names are too common to skip everywhere).
    static let skipped: Set<String> = [".build", ".local", ".git", ".swiftpm", "node_modules"]
    static let skippedPaths: Set<String> = ["Benchmarks/out", "Reports/out"]
    static let textExtensions: Set<String> = ["md", "swift", "sql", "sh", "py", "txt", "service", "timer", "example", "conf", "json", "yml", "yaml"]

    /// Every file under the root, relative paths, skipping the folders above.
    static func files() -> [String] {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey]) else { return [] }
        var found: [String] = []
        for case let url as URL in walker {
            let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            if skipped.contains(url.lastPathComponent) || skippedPaths.contains(relative) { walker.skipDescendants(); continue }
            if (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true { continue }
            found.append(relative)
        }
        return found.sorted()
    }

    /// The targets of Markdown links `[text](target)` and `<img src="…">` in `text`.
    static func linkTargets(_ text: String) -> [String] {
        var targets: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: "](") {
            rest = rest[open.upperBound...]
            guard let close = rest.firstIndex(of: ")") else { break }
            targets.append(String(rest[..<close]).split(separator: " ").first.map(String.init) ?? "")
            rest = rest[close...]
        }
        return targets
    }

    /// The dead relative links of `file` (a path relative to the root), as `file: target` lines.
    static func deadLinks(in file: String, text: String, exists: (String) -> Bool) -> [String] {
        let folder = (file as NSString).deletingLastPathComponent
        var dead: [String] = []
        for target in linkTargets(text) {
            if target.isEmpty || target.hasPrefix("#") || target.contains("://") || target.hasPrefix("mailto:") { continue }
            let path = String(target.split(separator: "#", maxSplits: 1).first ?? "")
            if path.hasPrefix("/") { dead.append("\(file): \(target) (absolute path)"); continue }
            guard let normalised = normalise(folder.isEmpty ? path : folder + "/" + path), exists(normalised) else {
                dead.append("\(file): \(target)")
                continue
            }
        }
        return dead
    }

    /// `a/b/../c/./d` → `a/c/d`; nil when the path climbs above the repository root.
    static func normalise(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == ".." {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    /// The references in `text` to documents outside the repository.
    /// The reference shelf beside the repository, spelled in parts so this file does not name it literally.
    static let shelf = ["..", "shared"].joined(separator: "/")
    static let outsideReferences = [shelf, "/work/", "DESIGN.md", "seeds/", "000_cb60fc8140393695", "design document", "design doc"]

    @Test func everyRelativeMarkdownLinkResolves() throws {
        let files = Self.files()
        let present = Set(files)
        let folders = Set(files.flatMap { path -> [String] in
            var parts = path.split(separator: "/").dropLast()
            var out: [String] = []
            while !parts.isEmpty { out.append(parts.joined(separator: "/")); parts = parts.dropLast() }
            return out
        })
        var dead: [String] = []
        for file in files where file.hasSuffix(".md") {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            dead += Self.deadLinks(in: file, text: text) { present.contains($0) || folders.contains($0) }
        }
        #expect(files.contains("docs/RUNBOOK.md"))
        #expect(dead == [])
    }

    @Test func generatedOutputTreesAreNotRepositoryContent() throws {
        // A benchmark's or build-reports' output (git-ignored) may hold anything, e.g. a copied Markdown file whose
        // relative links point elsewhere: the walk must not read it. Probe with one file in each tree.
        var probes: [URL] = []
        defer { for probe in probes { try? FileManager.default.removeItem(at: probe) } }
        for folder in Self.skippedPaths {
            let url = Self.root.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            let probe = url.appendingPathComponent("docs-tests-probe-\(getpid()).md")
            try ("[gone](missing/file.md) " + Self.shelf).write(to: probe, atomically: true, encoding: .utf8)
            probes.append(probe)
        }
        let files = Self.files()
        #expect(files.contains("Benchmarks/results.md"), "the walk still sees Benchmarks/")
        #expect(files.filter { $0.hasPrefix("Benchmarks/out/") || $0.hasPrefix("Reports/out/") } == [])
    }

    @Test func noFileRefersToADocumentOutsideTheRepository() throws {
        var found: [String] = []
        for file in Self.files() where Self.textExtensions.contains((file as NSString).pathExtension) || file.hasSuffix("Makefile") {
            if file == "Tests/DocsTests/RepositoryDocsTests.swift" { continue }
            // Applied migrations are immutable (checksummed); SQL/README.md says what their "design document" means.
            let references = file.hasPrefix("SQL/migrations/") ? Self.outsideReferences.filter { !$0.hasPrefix("design doc") } : Self.outsideReferences
            guard let text = try? String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8) else { continue }
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for reference in references where line.range(of: reference, options: .caseInsensitive) != nil {
                    found.append("\(file):\(number + 1): '\(reference)' (point into docs/ instead)")
                }
            }
        }
        #expect(found == [])
    }

    @Test func theLinkCheckFindsDeadAndEscapingLinks() {
        let text = "[ok](docs/A.md) [dead](docs/B.md) [back](../README.md) [web](https://example.com) [anchor](#x) [up](\(Self.shelf)/X.md) [abs](/work/x.md) [frag](docs/A.md#y)"
        let dead = Self.deadLinks(in: "README.md", text: text) { $0 == "docs/A.md" || $0 == "README.md" }
        #expect(dead == ["README.md: docs/B.md", "README.md: ../README.md", "README.md: \(Self.shelf)/X.md", "README.md: /work/x.md (absolute path)"])
    }
}
