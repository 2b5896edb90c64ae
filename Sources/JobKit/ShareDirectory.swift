import Foundation

/// Where a job finds the files it reads at run time (SQL migrations, report SQL, BUILD_COMMIT), located from the
/// running binary, never from the working directory:
/// 1. `IAP_SHARE_DIR` when set (tests, unusual layouts): `<dir>/migrations`, `<dir>/reports`,
///    `<dir>/job_role_grants.sql`, `<dir>/BUILD_COMMIT`;
/// 2. an installed binary `<prefix>/bin/<job>`: `<prefix>/share/iap-pipeline` (what `make install` writes), same layout;
/// 3. a binary inside a build folder `<root>/.build/…`: the source tree `<root>` (`SQL/migrations`, `Reports`,
///    `SQL/job_role_grants.sql`, `.build/BUILD_COMMIT` written by the Makefile), which is how tests and `make demo` run.
public struct ShareDirectory: Sendable, Equatable {
    /// The environment variable that overrides the location.
    public static let environmentVariable = "IAP_SHARE_DIR"
    /// The installed folder's path below the prefix.
    public static let installedPath = "share/iap-pipeline"

    /// Why no share folder was found.
    public struct NotFound: Error, CustomStringConvertible {
        public let description: String
    }

    /// The SQL migrations folder.
    public let migrations: URL
    /// The report SQL folder (build-reports' default `--sql-dir`).
    public let reports: URL
    /// The job role's table privileges, applied by `migrate` after every run (`Migrator`).
    public let jobRoleGrants: URL
    /// The file holding the git commit the binary was built from.
    public let buildCommit: URL

    /// The layout of an installed (or `IAP_SHARE_DIR`) folder.
    public init(installed folder: URL) {
        migrations = folder.appendingPathComponent("migrations", isDirectory: true)
        reports = folder.appendingPathComponent("reports", isDirectory: true)
        jobRoleGrants = folder.appendingPathComponent("job_role_grants.sql")
        buildCommit = folder.appendingPathComponent("BUILD_COMMIT")
    }

    /// The layout of a source tree whose build folder holds the binary.
    public init(sourceTree root: URL) {
        migrations = root.appendingPathComponent("SQL/migrations", isDirectory: true)
        reports = root.appendingPathComponent("Reports", isDirectory: true)
        jobRoleGrants = root.appendingPathComponent("SQL/job_role_grants.sql")
        buildCommit = root.appendingPathComponent(".build/BUILD_COMMIT")
    }

    /// The share folder of this process (see the type's summary for the order), or an error naming where it looked.
    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ShareDirectory {
        try locate(executable: runningExecutable(), environment: environment)
    }

    /// The share folder for a binary at `executable`.
    public static func locate(executable: URL, environment: [String: String]) throws -> ShareDirectory {
        if let override = environment[environmentVariable], !override.isEmpty {
            return ShareDirectory(installed: URL(fileURLWithPath: override, isDirectory: true))
        }
        let binFolder = executable.deletingLastPathComponent()
        let installed = binFolder.deletingLastPathComponent().appendingPathComponent(installedPath, isDirectory: true)
        if isDirectory(installed) { return ShareDirectory(installed: installed) }
        var folder = binFolder
        while folder.path != "/" && !folder.path.isEmpty {
            if folder.lastPathComponent == ".build" { return ShareDirectory(sourceTree: folder.deletingLastPathComponent()) }
            folder = folder.deletingLastPathComponent()
        }
        throw NotFound(description: "no share folder for \(executable.path): looked for \(installed.path) (make install writes it) "
                       + "and for a build folder (.build) above the binary; set \(environmentVariable) to the folder")
    }

    /// The running binary's real path (`/proc/self/exe`), else the first argument made absolute.
    public static func runningExecutable() -> URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.resolvingSymlinksInPath()
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &directory) && directory.boolValue
    }
}
