import Foundation
import Testing

/// The package keeps its documented shape: nothing that ships depends on simulation, test or benchmark code, each
/// C library is reached only through its wrapper, and every arrow points down the layers of docs/ARCHITECTURE.md.
@Suite struct PackageGraphTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func thePackageKeepsTheLayering() throws {
        let graph = try PackageGraphLoader.load(root: Self.root)
        // The graph was really read: the jobs, the wrappers and the simulation are all there.
        #expect(graph.targets["requery-at-risk"]?.dependencies.contains("RepairJobs") == true)
        #expect(graph.targets["Postgres"]?.dependencies.contains("CLibpq") == true)
        #expect(graph.targets["WorldGen"]?.kind == .simulation)
        #expect(Layering.violations(in: graph) == [])
    }

    /// The compact engine's memory helpers are one low target: it imports nothing of ours (in Package.swift or in a
    /// source file), Reconciliation builds on it, and its layer is below Reconciliation's.
    @Test func theMemoryHelpersSitBelowReconciliationAndImportNothingOfOurs() throws {
        let graph = try PackageGraphLoader.load(root: Self.root)
        #expect(graph.targets["CompactMemory"]?.kind == .production)
        #expect(graph.targets["CompactMemory"]?.dependencies == [])
        #expect(graph.targets["Reconciliation"]?.dependencies.contains("CompactMemory") == true)
        let layer = { (name: String) in Layering.layers.firstIndex { $0.targets.contains(name) } ?? Int.max }
        #expect(layer("CompactMemory") < layer("Reconciliation"))
    }

    @Test func theManifestReaderSeesHelpersPathsAndDependencies() throws {
        let manifest = """
            systemLibrary("CLibpq", pkgConfig: "libpq", apt: "libpq-dev"),
            .target(name: "Postgres", dependencies: ["CLibpq"]),
            // .target(name: "Commented", dependencies: ["Nothing"]),
            simulation("WorldGen", ["Postgres", "SeededRandom"]),
            job("requery-at-risk", ["JobKit", "RepairJobs"]),
            .executableTarget(name: "world", dependencies: ["WorldGen"], path: "Simulation/WorldMain"),
            .testTarget(name: "PostgresTests", dependencies: ["Postgres"]),
            """
        let declared = try PackageGraphLoader.declarations(manifest)
        #expect(declared.map(\.name) == ["CLibpq", "Postgres", "WorldGen", "requery-at-risk", "world", "PostgresTests"])
        #expect(declared.map(\.path) == ["Sources/CLibpq", "Sources/Postgres", "Simulation/WorldGen", "Jobs/requery-at-risk",
                                         "Simulation/WorldMain", "Tests/PostgresTests"])
        #expect(declared[2].dependencies == ["Postgres", "SeededRandom"])
    }

    // The fixture: a small graph that keeps every rule, then one deliberate violation of each rule.

    static let fixtureLayers: [(name: String, targets: [String])] = [
        ("C", ["CLibpq", "CArchive"]), ("wrappers", ["Postgres", "Archive"]), ("jobs", ["job"]),
    ]
    static let fixtureWrappers: [String: Set<String>] = ["CLibpq": ["Postgres"], "CArchive": ["Archive"]]

    static func fixture(_ change: (inout [String: PackageGraph.Target]) -> Void = { _ in }) -> [String] {
        var targets: [String: PackageGraph.Target] = [
            "CLibpq": .init(name: "CLibpq", kind: .production, dependencies: []),
            "CArchive": .init(name: "CArchive", kind: .production, dependencies: []),
            "Postgres": .init(name: "Postgres", kind: .production, dependencies: ["CLibpq"]),
            "Archive": .init(name: "Archive", kind: .production, dependencies: ["CArchive"]),
            "job": .init(name: "job", kind: .production, dependencies: ["Postgres"]),
            "WorldGen": .init(name: "WorldGen", kind: .simulation, dependencies: ["Postgres", "Archive"]),
            "JobTests": .init(name: "JobTests", kind: .test, dependencies: ["job", "WorldGen"]),
        ]
        change(&targets)
        return Layering.violations(in: PackageGraph(targets: targets), layers: fixtureLayers, cWrappers: fixtureWrappers)
    }

    @Test func theCleanFixturePasses() {
        #expect(Self.fixture() == [])
    }

    @Test func aProductionTargetImportingSimulationFails() {
        let jobOnWorld = Self.fixture { $0["job"]?.dependencies.insert("WorldGen") }
        #expect(jobOnWorld == ["job (production) depends on WorldGen (simulation)"])
        let wrapperOnTests = Self.fixture { $0["Postgres"]?.dependencies.insert("JobTests") }
        #expect(wrapperOnTests.contains("Postgres (production) depends on JobTests (test)"))
    }

    @Test func aCModuleImportedOutsideItsWrapperFails() {
        let worldOnLibarchive = Self.fixture { $0["WorldGen"]?.dependencies.insert("CArchive") }
        #expect(worldOnLibarchive == ["WorldGen imports the C module CArchive outside its wrapper (Archive)"])
    }

    @Test func anArrowAgainstTheLayeringFails() {
        let upward = Self.fixture { $0["Postgres"]?.dependencies.insert("job") }
        #expect(upward == ["Postgres (wrappers) depends on job (jobs): against the layering"])
        let sideways = Self.fixture { $0["Postgres"]?.dependencies.insert("Archive") }
        #expect(sideways == ["Postgres (wrappers) depends on Archive (wrappers): against the layering"])
    }

    @Test func aShippingTargetWithoutALayerFails() {
        let unlayered = Self.fixture { $0["Reports"] = .init(name: "Reports", kind: .production, dependencies: ["Postgres"]) }
        #expect(unlayered == ["Reports ships but has no layer in Layering.layers (and docs/ARCHITECTURE.md)"])
    }
}
