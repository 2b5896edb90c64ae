// swift-tools-version:6.0
// The IAP subscription reconciliation and finance reporting pipeline.
// Direction of imports is one-way: C system libraries → wrappers → BillingCore → clients,
// exports, reconciliation, reporting → JobKit → Jobs/*.
import PackageDescription

/// A C library from Debian, found through pkg-config, installed by `make deps`.
func systemLibrary(_ name: String, pkgConfig: String, apt: String) -> Target {
    .systemLibrary(name: name, path: "Sources/\(name)", pkgConfig: pkgConfig, providers: [.apt([apt])])
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

        .target(name: "Postgres", dependencies: ["CLibpq"]),
        .target(name: "Migrations", path: "SQL",
                exclude: ["README.md"], resources: [.copy("migrations")]),
        .target(name: "Crypto", dependencies: ["COpenSSL"]),
        .target(name: "CCurlShim", dependencies: ["CCurl"]),
        .target(name: "HTTP", dependencies: ["CCurl", "CCurlShim"]),
        .target(name: "HTTPServer", dependencies: ["HTTP"]),
        .target(name: "RateLimiting", dependencies: ["Postgres"]),
        .target(name: "StoreTruth", dependencies: ["Crypto"]),
        .target(name: "StoreSimulator", dependencies: ["HTTP", "HTTPServer", "Crypto", "StoreTruth", "BillingCore"]),
        .executableTarget(name: "store-simulator", dependencies: ["StoreSimulator"], path: "Sources/StoreSimulatorMain"),
        .target(name: "StoreAccess", dependencies: ["AppStore", "GooglePlay", "StoreCalls", "RateLimiting", "HTTP", "Crypto", "JobKit", "Postgres"]),
        .target(name: "WorldGen", dependencies: ["BillingCore", "Postgres", "StoreTruth", "Crypto", "ProjectionStore", "CArchive", "JobKit"]),
        .executableTarget(name: "world", dependencies: ["WorldGen", "JobKit"], path: "Sources/WorldMain"),
        .target(name: "StoreCalls", dependencies: ["HTTP", "RateLimiting"]),
        .target(name: "AppStore", dependencies: ["HTTP", "Crypto", "BillingCore", "RateLimiting", "StoreCalls"]),
        .target(name: "GooglePlay", dependencies: ["HTTP", "Crypto", "BillingCore", "RateLimiting", "StoreCalls"]),
        .target(name: "BillingCore"),
        .target(name: "ProjectionStore", dependencies: ["Postgres", "BillingCore"]),
        .target(name: "JobKit", dependencies: ["Postgres", "Migrations"]),
        .target(name: "RepairJobs", dependencies: ["JobKit", "Postgres", "BillingCore", "ProjectionStore", "StoreAccess", "AppStore", "GooglePlay", "StoreCalls", "Crypto"]),

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
        .executableTarget(name: "bench-jws", dependencies: ["Crypto", "BillingCore"], path: "Benchmarks/jws"),

        .target(name: "TestSupport", dependencies: ["Postgres", "Migrations", "JobKit"], path: "Tests/TestSupport"),
        .testTarget(name: "PostgresTests", dependencies: ["Postgres", "TestSupport"]),
        .testTarget(name: "MigrationsTests", dependencies: ["Migrations", "Postgres", "TestSupport"]),
        .testTarget(name: "JobKitTests", dependencies: ["JobKit", "TestSupport"]),
        .testTarget(name: "BillingCoreTests", dependencies: ["BillingCore"], resources: [.copy("Fixtures")]),
        .testTarget(name: "CryptoTests", dependencies: ["Crypto"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "HTTPServer"]),
        .testTarget(name: "RateLimitingTests", dependencies: ["RateLimiting", "Postgres", "TestSupport"]),
        .target(name: "SimulatorFixtures", dependencies: ["StoreTruth", "Crypto"], path: "Tests/SimulatorFixtures"),
        .testTarget(name: "StoreSimulatorTests", dependencies: ["StoreSimulator", "StoreTruth", "HTTP", "HTTPServer", "Crypto", "BillingCore", "SimulatorFixtures"]),
        .testTarget(name: "StoreClientTests", dependencies: ["AppStore", "GooglePlay", "StoreCalls", "StoreSimulator", "StoreTruth", "HTTP",
                                                            "HTTPServer", "Crypto", "RateLimiting", "BillingCore", "SimulatorFixtures", "Postgres", "TestSupport"]),
        .testTarget(name: "WorldGenTests", dependencies: ["WorldGen", "StoreTruth", "BillingCore", "Postgres", "ProjectionStore", "TestSupport"]),
        .testTarget(name: "RepairJobsTests", dependencies: ["RepairJobs", "WorldGen", "StoreSimulator", "StoreTruth", "HTTP", "HTTPServer", "Crypto", "TestSupport", "SimulatorFixtures", "ProjectionStore", "BillingCore", "Postgres", "JobKit", "StoreAccess"]),
        .testTarget(name: "ProjectionStoreTests", dependencies: ["ProjectionStore", "BillingCore", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
