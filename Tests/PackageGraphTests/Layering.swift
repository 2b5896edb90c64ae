/// The documented layering (docs/ARCHITECTURE.md draws it) and the rules every target graph must keep.
enum Layering {
    /// Production layers, lowest first; a production target may depend only on targets of a lower layer.
    static let layers: [(name: String, targets: [String])] = [
        ("C libraries", ["CLibpq", "CCurl", "COpenSSL", "CArchive", "CXlsxWriter"]),
        ("C shims", ["CCurlShim"]),
        ("memory", ["CompactMemory"]),
        ("domain", ["BillingCore"]),
        ("wrappers", ["Postgres", "HTTP", "Archive", "XLSX", "Migrations"]),
        ("services", ["Crypto", "RateLimiting", "ProjectionStore", "JobKit", "HTTPServer", "StoreExports"]),
        ("store plumbing", ["StoreAuth", "StoreCalls"]),
        ("store clients", ["AppStore", "GooglePlay"]),
        ("client assembly", ["StoreAccess"]),
        ("job libraries", ["RepairJobs", "Monitoring", "ReportImport", "Reconciliation", "Explain", "Reporting", "Retention", "NotificationCheck", "Catalog"]),
        ("jobs", ["migrate", "nightly", "requery-at-risk", "replay-events", "recover-notifications", "ack-rescue", "sweep-voided", "expire-lapsed", "drift-counts", "import-exports", "show-order", "reconcile", "close-period", "explain", "build-reports", "retention", "check-notifications", "catalog"]),
    ]

    /// Each C module and the only targets that may import it (its wrapper; OpenSSL also has the test-only
    /// certificate issuer, which never ships).
    static let cWrappers: [String: Set<String>] = [
        "CLibpq": ["Postgres"],
        "CCurl": ["HTTP", "CCurlShim"],
        "CCurlShim": ["HTTP"],
        "COpenSSL": ["Crypto", "TestCertificates"],
        "CArchive": ["Archive"],
        "CXlsxWriter": ["XLSX"],
    ]

    /// Every broken rule, one line each; empty when the graph keeps the layering.
    static func violations(in graph: PackageGraph, layers: [(name: String, targets: [String])] = layers,
                           cWrappers: [String: Set<String>] = cWrappers) -> [String] {
        var layerOf: [String: Int] = [:]
        for (index, layer) in layers.enumerated() {
            for target in layer.targets { layerOf[target] = index }
        }
        var found: [String] = []
        for target in graph.targets.values.sorted(by: { $0.name < $1.name }) {
            for dependency in target.dependencies.sorted() {
                guard let other = graph.targets[dependency] else { continue }
                if target.kind == .production && other.kind != .production {
                    found.append("\(target.name) (production) depends on \(dependency) (\(other.kind.rawValue))")
                }
                if let allowed = cWrappers[dependency], !allowed.contains(target.name) {
                    found.append("\(target.name) imports the C module \(dependency) outside its wrapper (\(allowed.sorted().joined(separator: ", ")))")
                }
                if target.kind == .production, other.kind == .production, let from = layerOf[target.name], let to = layerOf[dependency],
                   to >= from {
                    found.append("\(target.name) (\(layers[from].name)) depends on \(dependency) (\(layers[to].name)): against the layering")
                }
            }
            if target.kind == .production && layerOf[target.name] == nil {
                found.append("\(target.name) ships but has no layer in Layering.layers (and docs/ARCHITECTURE.md)")
            }
        }
        return found
    }
}
