import Foundation
import SimulatorFixtures
import TestSupport

/// A real job executable (built beside the test binary), configured only through its environment like the cron
/// would configure it: keys in files named by variables, the harness's simulator as both stores, connected as the
/// job role `iap_job` (deploy/postgres/roles.sql), as an installation's jobs are.
struct JobProcess {
    let executable: URL
    let environment: [String: String]

    /// The environment for `harness`: its database, the simulator's URLs, key files under `folder`,
    /// `STORE_RATE_LIMITS` set to `rateLimits`, and `extra` variables.
    init(_ name: String, harness: RequeryHarness, folder: URL, rateLimits: String = "", extra: [String: String] = [:]) throws {
        executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let appleKey = folder.appendingPathComponent("apple.p8")
        let root = folder.appendingPathComponent("root.pem")
        let account = folder.appendingPathComponent("google.json")
        try TestKeys.apple.get().write(to: appleKey, atomically: true, encoding: .utf8)
        try harness.rootPEM.write(to: root, atomically: true, encoding: .utf8)
        let base = "http://127.0.0.1:\(harness.server.port)"
        let accountJSON: [String: String] = [
            "type": "service_account", "project_id": "tests", "private_key_id": "k1", "private_key": try TestKeys.google.get(),
            "client_email": "pipeline@project.iam.gserviceaccount.com", "token_uri": base + "/token",
        ]
        try JSONSerialization.data(withJSONObject: accountJSON).write(to: account)
        for key in [appleKey, account] {   // the jobs refuse key files others can read
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key.path)
        }
        var variables = ProcessInfo.processInfo.environment
        variables["DATABASE_URL"] = nil
        variables["PGDATABASE"] = harness.databaseName
        variables["PGUSER"] = RoleDatabase.job
        variables["APPLE_BUNDLE_ID"] = harness.world.truth.apple.bundleId
        variables["APPLE_APP_APPLE_ID"] = String(harness.world.truth.apple.appAppleId)
        variables["APPLE_ENVIRONMENT"] = "Production"
        variables["APPLE_API_BASE_URL"] = base
        variables["APPLE_SANDBOX_API_BASE_URL"] = base + "/sandbox"
        variables["APPLE_KEY_ID"] = "KEY123"
        variables["APPLE_ISSUER_ID"] = "issuer-uuid"
        variables["APPLE_PRIVATE_KEY_FILE"] = appleKey.path
        variables["APPLE_ROOT_CERT_FILES"] = root.path
        variables["GOOGLE_PACKAGE_NAME"] = harness.world.truth.google.packageName
        variables["GOOGLE_SERVICE_ACCOUNT_FILE"] = account.path
        variables["GOOGLE_API_BASE_URL"] = base
        variables["GOOGLE_TOKEN_URL"] = base + "/token"
        variables["STORE_RATE_LIMITS"] = rateLimits
        variables.merge(extra) { $1 }
        environment = variables
    }

    /// True when the executable has been built (`make test` builds every product).
    var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: executable.path) }

    /// Starts the process with `arguments`; its stdout (the summary line) and stderr (logs) go to files in `folder`;
    /// it runs in `directory` when given (where a job writes relative output files).
    func start(_ arguments: [String], logs folder: URL, tag: String, directory: URL? = nil) throws -> Process {
        let process = Process()
        process.executableURL = executable
        if let directory { process.currentDirectoryURL = directory }
        process.arguments = ["--log-format", "json"] + arguments
        process.environment = environment
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("\(tag).out").path, contents: nil)
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("\(tag).err").path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: folder.appendingPathComponent("\(tag).out"))
        process.standardError = try FileHandle(forWritingTo: folder.appendingPathComponent("\(tag).err"))
        try process.run()
        return process
    }

    /// Runs the process to its end; returns the exit status and the summary line.
    func run(_ arguments: [String], logs folder: URL, tag: String, directory: URL? = nil) throws -> (status: Int32, summary: String) {
        let process = try start(arguments, logs: folder, tag: tag, directory: directory)
        process.waitUntilExit()
        let summary = (try? String(contentsOf: folder.appendingPathComponent("\(tag).out"), encoding: .utf8)) ?? ""
        return (process.terminationStatus, summary.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
