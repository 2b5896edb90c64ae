import Foundation

/// The target graph of a package: each target's folder kind and the targets it depends on (declared in
/// Package.swift or imported by a source file).
struct PackageGraph {
    /// Where a target's sources live, which says whether it ships.
    enum Kind: String {
        /// Sources/, Jobs/ and SQL/ (the migrations): what runs in production.
        case production
        /// Simulation/: the simulated stores and world (demo, tests, benchmarks).
        case simulation
        /// Tests/: test targets and their support libraries.
        case test
        /// Benchmarks/: benchmark drivers.
        case benchmark
    }

    /// One target.
    struct Target {
        let name: String
        let kind: Kind
        /// Targets it depends on or imports (toolchain modules such as Foundation are left out).
        var dependencies: Set<String>
    }

    var targets: [String: Target]

    /// The kind of a target folder from its first path component.
    static func kind(ofPath path: String) -> Kind? {
        switch path.split(separator: "/").first {
        case "Sources", "Jobs", "SQL": return .production
        case "Simulation": return .simulation
        case "Tests": return .test
        case "Benchmarks": return .benchmark
        default: return nil
        }
    }
}

/// Builds the graph of the package at a root folder from Package.swift and the `import` lines of each target's files.
enum PackageGraphLoader {
    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Reads `root`/Package.swift and every target's Swift files.
    static func load(root: URL) throws -> PackageGraph {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var targets: [String: PackageGraph.Target] = [:]
        for declared in try declarations(manifest) {
            guard let kind = PackageGraph.kind(ofPath: declared.path) else {
                throw Failure(description: "target \(declared.name) lives outside Sources/, Jobs/, Simulation/, Tests/, Benchmarks/: \(declared.path)")
            }
            let imports = try imports(in: root.appendingPathComponent(declared.path))
            targets[declared.name] = .init(name: declared.name, kind: kind, dependencies: declared.dependencies.union(imports))
        }
        // Only arrows between the package's own targets count (Foundation, Testing, Glibc … are the toolchain's).
        let names = Set(targets.keys)
        for name in names { targets[name]?.dependencies.formIntersection(names) }
        return PackageGraph(targets: targets)
    }

    /// One target as Package.swift declares it: name, folder and listed dependencies.
    struct Declaration {
        let name: String
        let path: String
        let dependencies: Set<String>
    }

    /// The targets of a manifest written one target per line, through `.target(name:…)` and friends or this package's
    /// helpers `systemLibrary("…")`, `simulation("…", […])` and `job("…", […])`.
    static func declarations(_ manifest: String) throws -> [Declaration] {
        var result: [Declaration] = []
        for line in manifest.split(separator: "\n").map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.hasPrefix("//") else { continue }
            let helper: String?
            if trimmed.hasPrefix("systemLibrary(\"") { helper = "Sources" }
            else if trimmed.hasPrefix("simulation(\"") { helper = "Simulation" }
            else if trimmed.hasPrefix("job(\"") { helper = "Jobs" }
            else if trimmed.hasPrefix(".target(name:") || trimmed.hasPrefix(".executableTarget(name:")
                        || trimmed.hasPrefix(".testTarget(name:") { helper = nil }
            else { continue }
            // The helpers' own bodies (`.target(name: name, …)`) name no target.
            if trimmed.contains("name: name") { continue }
            guard let name = quoted(after: helper == nil ? "name: " : "(", in: trimmed) else {
                throw Failure(description: "cannot read the target name in: \(trimmed)")
            }
            var dependencies: Set<String> = []
            if let open = trimmed.firstIndex(of: "["), let close = trimmed[open...].firstIndex(of: "]") {
                dependencies = Set(trimmed[trimmed.index(after: open)..<close].split(separator: ",").compactMap {
                    let item = $0.trimmingCharacters(in: .whitespaces)
                    return item.hasPrefix("\"") && item.hasSuffix("\"") && item.count > 2 ? String(item.dropFirst().dropLast()) : nil
                })
            }
            let path: String
            if let explicit = quoted(after: "path: ", in: trimmed) { path = explicit }
            else if let helper { path = "\(helper)/\(name)" }
            else { path = (trimmed.hasPrefix(".testTarget") ? "Tests/" : "Sources/") + name }
            result.append(Declaration(name: name, path: path, dependencies: dependencies))
        }
        return result
    }

    /// The module names in `import X` / `@testable import X` lines of the Swift files under `folder`.
    static func imports(in folder: URL) throws -> Set<String> {
        var result: Set<String> = []
        guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return result }
        for case let file as URL in files where file.pathExtension == "swift" {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                let words = line.split(separator: " ")
                if let index = words.firstIndex(of: "import"), index == 0 || words[0].hasPrefix("@"), index + 1 < words.count {
                    result.insert(String(words[index + 1]))
                }
            }
        }
        return result
    }

    private static func quoted(after marker: String, in text: String) -> String? {
        guard let start = text.range(of: marker + "\"") else { return nil }
        let rest = text[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}
