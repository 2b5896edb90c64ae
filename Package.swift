// swift-tools-version:6.0
// The IAP subscription reconciliation and finance reporting pipeline.
// Sources/ holds what ships; Simulation/ the simulated stores and world (demo, tests, benchmarks only).
// Imports point one way, down the layers drawn in docs/ARCHITECTURE.md (PackageGraphTests enforces them):
// C system libraries → wrappers and BillingCore → StoreAuth, StoreCalls → store clients, ProjectionStore, JobKit
// → StoreAccess → job libraries → Jobs/*.
import PackageDescription

/// A C library from Debian, found through pkg-config, installed by `make deps`.
func systemLibrary(_ name: String, pkgConfig: String, apt: String) -> Target {
    .systemLibrary(name: name, path: "Sources/\(name)", pkgConfig: pkgConfig, providers: [.apt([apt])])
}

/// A simulation library under Simulation/<name>/ (demo, tests and benchmarks only).
func simulation(_ name: String, _ dependencies: [Target.Dependency] = []) -> Target {
    .target(name: name, dependencies: dependencies, path: "Simulation/\(name)")
}

/// One thin executable per job under Jobs/<job-name>/.
func job(_ name: String, _ dependencies: [Target.Dependency] = ["JobKit", "Postgres"]) -> Target {
    .executableTarget(name: name, dependencies: dependencies, path: "Jobs/\(name)")
}

let package = Package(
    name: "iap-pipeline",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "migrate", targets: ["migrate"]),
        .executable(name: "nightly", targets: ["nightly"]),
    ],
    targets: [
        systemLibrary("CLibpq", pkgConfig: "libpq", apt: "libpq-dev"),
        systemLibrary("CCurl", pkgConfig: "libcurl", apt: "libcurl4-openssl-dev"),
        systemLibrary("CXlsxWriter", pkgConfig: "xlsxwriter", apt: "libxlsxwriter-dev"),
        systemLibrary("COpenSSL", pkgConfig: "openssl", apt: "libssl-dev"),
        systemLibrary("CArchive", pkgConfig: "libarchive", apt: "libarchive-dev"),

        .target(name: "Postgres", dependencies: ["CLibpq", "CompactMemory"]),
        // The .sql files are not a resource bundle: jobs read them from the share folder (JobKit's ShareDirectory),
        // which `make install` fills and which is the source tree in a build folder.
        .target(name: "Migrations", path: "SQL", exclude: ["README.md", "migrations", "job_role_grants.sql"]),
        .target(name: "Crypto", dependencies: ["COpenSSL", "BillingCore"]),
        .target(name: "StoreAuth", dependencies: ["Crypto"]),
        .target(name: "Archive", dependencies: ["CArchive", "CompactMemory"]),
        .target(name: "CCurlShim", dependencies: ["CCurl"]),
        .target(name: "HTTP", dependencies: ["CCurl", "CCurlShim", "BillingCore"]),
        .target(name: "HTTPServer", dependencies: ["HTTP"]),
        .target(name: "RateLimiting", dependencies: ["Postgres"]),
        .target(name: "StoreAccess", dependencies: ["AppStore", "GooglePlay", "StoreCalls", "RateLimiting", "HTTP", "Crypto", "StoreAuth", "BillingCore", "JobKit", "Postgres"]),
        .target(name: "StoreCalls", dependencies: ["HTTP", "RateLimiting", "BillingCore"]),
        .target(name: "AppStore", dependencies: ["HTTP", "Crypto", "StoreAuth", "BillingCore", "RateLimiting", "StoreCalls"]),
        .target(name: "GooglePlay", dependencies: ["HTTP", "Crypto", "StoreAuth", "BillingCore", "RateLimiting", "StoreCalls"]),
        .target(name: "BillingCore"),
        .target(name: "StoreExports", dependencies: ["Archive", "BillingCore"]),
        .target(name: "ProjectionStore", dependencies: ["Postgres", "BillingCore"]),
        .target(name: "JobKit", dependencies: ["Postgres", "Migrations"]),
        .target(name: "RepairJobs", dependencies: ["JobKit", "Postgres", "BillingCore", "ProjectionStore", "StoreAccess", "AppStore", "GooglePlay", "StoreCalls", "Crypto"]),

        // Simulation: never imported by a target under Sources/ or Jobs/ (PackageGraphTests).
        simulation("SeededRandom"),
        simulation("TestCertificates", ["Crypto", "COpenSSL"]),
        simulation("StoreTruth", ["Crypto"]),
        simulation("StoreSimulator", ["HTTP", "HTTPServer", "Crypto", "StoreAuth", "StoreCalls", "RateLimiting", "StoreTruth", "BillingCore", "SeededRandom", "TestCertificates"]),
        .executableTarget(name: "store-simulator", dependencies: ["StoreSimulator"], path: "Simulation/StoreSimulatorMain"),
        simulation("WorldGen", ["BillingCore", "Postgres", "StoreTruth", "Crypto", "ProjectionStore", "Archive", "JobKit", "SeededRandom"]),
        .executableTarget(name: "world", dependencies: ["WorldGen", "JobKit", "StoreTruth"], path: "Simulation/WorldMain"),

        job("migrate"),
        job("requery-at-risk", ["JobKit", "Postgres", "RepairJobs"]),
        job("replay-events", ["JobKit", "Postgres", "RepairJobs"]),
        job("recover-notifications", ["JobKit", "Postgres", "RepairJobs"]),
        job("ack-rescue", ["JobKit", "Postgres", "RepairJobs"]),
        job("sweep-voided", ["JobKit", "Postgres", "RepairJobs"]),
        job("expire-lapsed", ["JobKit", "Postgres", "RepairJobs"]),
        job("nightly"),

        .executableTarget(name: "bench-copy-load", dependencies: ["Postgres"], path: "Benchmarks/copy-load"),
        .executableTarget(name: "bench-projection", dependencies: ["BillingCore", "ProjectionStore", "Postgres"], path: "Benchmarks/projection"),
        .executableTarget(name: "bench-jws", dependencies: ["Crypto", "BillingCore", "TestCertificates"], path: "Benchmarks/jws"),

        .target(name: "TestSupport", dependencies: ["Postgres", "Migrations", "JobKit", "StoreExports", "Archive", "BillingCore"], path: "Tests/TestSupport"),
        .testTarget(name: "PostgresTests", dependencies: ["Postgres", "TestSupport"]),
        .testTarget(name: "MigrationsTests", dependencies: ["Migrations", "Postgres", "TestSupport", "WorldGen"]),
        .testTarget(name: "JobKitTests", dependencies: ["JobKit", "TestSupport"]),
        .testTarget(name: "BillingCoreTests", dependencies: ["BillingCore", "SeededRandom"], resources: [.copy("Fixtures")]),
        .testTarget(name: "CryptoTests", dependencies: ["Crypto", "StoreAuth", "TestCertificates"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "HTTPServer"]),
        .testTarget(name: "RateLimitingTests", dependencies: ["RateLimiting", "StoreCalls", "Postgres", "TestSupport"]),
        .target(name: "SimulatorFixtures", dependencies: ["StoreTruth", "Crypto", "TestCertificates"], path: "Tests/SimulatorFixtures"),
        .testTarget(name: "StoreSimulatorTests", dependencies: ["StoreSimulator", "RateLimiting", "StoreTruth", "HTTP", "HTTPServer", "Crypto", "StoreAuth", "BillingCore", "SimulatorFixtures", "TestCertificates"]),
        .testTarget(name: "StoreClientTests", dependencies: ["AppStore", "GooglePlay", "StoreCalls", "StoreSimulator", "StoreTruth", "HTTP",
                                                            "HTTPServer", "Crypto", "StoreAuth", "RateLimiting", "BillingCore", "SimulatorFixtures", "Postgres", "TestSupport", "TestCertificates"]),
        .testTarget(name: "WorldGenTests", dependencies: ["WorldGen", "StoreTruth", "BillingCore", "Postgres", "ProjectionStore", "TestSupport", "Archive"]),
        .testTarget(name: "RepairJobsTests", dependencies: ["RepairJobs", "WorldGen", "StoreSimulator", "StoreTruth", "HTTP", "HTTPServer", "Crypto", "StoreAuth", "TestSupport", "SimulatorFixtures", "ProjectionStore", "BillingCore", "Postgres", "JobKit", "StoreAccess", "StoreCalls", "RateLimiting", "TestCertificates", "NotificationCheck", "Monitoring", "Reconciliation", "Reporting", "ReportImport"]),
        .testTarget(name: "ProjectionStoreTests", dependencies: ["ProjectionStore", "BillingCore", "TestSupport"]),
        .testTarget(name: "PackageGraphTests"),
        .testTarget(name: "StoreExportsTests", dependencies: ["StoreExports", "Archive", "TestSupport"], resources: [.copy("Fixtures")]),

        // Monitoring and operations (issue 16).
        .target(name: "Monitoring", dependencies: ["JobKit", "Postgres"]),
        job("drift-counts", ["JobKit", "Postgres", "Monitoring"]),
        .testTarget(name: "MonitoringTests", dependencies: ["Monitoring", "JobKit", "Postgres", "TestSupport"]),
        .testTarget(name: "DocsTests"),

        .target(name: "XLSX", dependencies: ["CXlsxWriter"]),
        .testTarget(name: "XLSXTests", dependencies: ["XLSX", "Archive"]),
        .executableTarget(name: "bench-xlsx", dependencies: ["XLSX"], path: "Benchmarks/xlsx"),
        // Report import (issue 14): staging of the stores' report files.
        .target(name: "ReportImport", dependencies: ["CompactMemory", "StoreExports", "BillingCore", "JobKit", "Postgres", "Crypto", "AppStore", "GooglePlay", "StoreAccess"]),
        job("import-exports", ["JobKit", "ReportImport"]),
        // show-order: a Google order's staged earnings rows, read back from the kept report files (issue 29).
        job("show-order", ["JobKit", "ReportImport"]),
        .testTarget(name: "ReportImportTests", dependencies: ["ReportImport", "StoreExports", "Archive", "JobKit", "Postgres", "TestSupport", "WorldGen",
                                                            "AppStore", "GooglePlay", "StoreAuth", "StoreCalls", "StoreSimulator",
                                                            "SimulatorFixtures", "HTTP", "HTTPServer", "Crypto", "RateLimiting"],
                    resources: [.copy("Fixtures")]),

        // Reconciliation and month-end close (issue 14): staged reports against billing_transaction.
        // Low-level helpers (interning, block arrays, the bounded hand-over between threads): import nothing of ours
        // (PackageGraphTests); the memory helpers kept because each beats the standard library alone (bench-compact-memory).
        .target(name: "CompactMemory"),
        .testTarget(name: "CompactMemoryTests", dependencies: ["CompactMemory"]),
        .executableTarget(name: "bench-compact-memory", dependencies: ["CompactMemory"], path: "Benchmarks/compact-memory"),
        .target(name: "Reconciliation", dependencies: ["CompactMemory", "StoreExports", "JobKit", "Postgres", "Crypto", "BillingCore"]),
        job("reconcile", ["JobKit", "Reconciliation"]),
        job("close-period", ["JobKit", "Reconciliation"]),
        .testTarget(name: "ReconciliationTests", dependencies: ["Reconciliation", "CompactMemory", "ReportImport", "StoreExports", "JobKit", "Postgres", "Crypto",
                                                                "TestSupport", "WorldGen", "BillingCore"]),

        // explain: one subscription's timeline (issue 16).
        .target(name: "Explain", dependencies: ["JobKit", "Postgres", "BillingCore"]),
        job("explain", ["JobKit", "Explain"]),
        // Operations (issue 16): retention and the notification self-check.
        .target(name: "Retention", dependencies: ["JobKit", "Postgres"]),
        // The product catalogue (plans and store products) from a file, run as the owner role at install.
        .target(name: "Catalog", dependencies: ["JobKit", "Postgres", "BillingCore"]),
        job("catalog", ["JobKit", "Catalog"]),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog", "JobKit", "Postgres", "TestSupport"]),
        job("retention", ["JobKit", "Retention"]),
        .target(name: "NotificationCheck", dependencies: ["JobKit", "Postgres", "StoreAccess", "AppStore", "StoreCalls"]),
        job("check-notifications", ["JobKit", "NotificationCheck"]),
        .testTarget(name: "RetentionTests", dependencies: ["Retention", "Reconciliation", "Reporting", "JobKit", "Postgres", "TestSupport", "WorldGen"]),
        .testTarget(name: "ExplainTests", dependencies: ["Explain", "JobKit", "Postgres", "ProjectionStore", "BillingCore", "TestSupport"]),

        // build-reports: the finance reports as CSV and one XLSX workbook with charts (issue 15).
        .target(name: "Reporting", dependencies: ["JobKit", "Postgres", "XLSX", "Crypto", "BillingCore", "CompactMemory"]),
        job("build-reports", ["JobKit", "Reporting"]),
        .testTarget(name: "ReportingTests", dependencies: ["Reporting", "JobKit", "Postgres", "Crypto", "XLSX", "Archive", "TestSupport", "WorldGen"]),
    ],
    swiftLanguageModes: [.v6]
)
