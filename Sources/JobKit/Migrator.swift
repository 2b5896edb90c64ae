import Foundation
import Migrations
import Postgres

/// Applies the numbered SQL files in order, each in its own transaction, recording version and checksum; then, on
/// every run (even when nothing was pending, so an upgraded database is healed), the job role's table privileges
/// (`SQL/job_role_grants.sql`, installed as `<share>/job_role_grants.sql`) in one transaction of their own.
public struct Migrator {
    /// One migration's state in this database.
    public struct Status: Sendable, Equatable {
        /// Applied, waiting, or applied from a file that has since changed.
        public enum State: String, Sendable { case applied, pending, changed, missing }
        public let version: Int
        public let name: String
        public let state: State
        public let appliedAt: Date?
    }

    /// Why migration cannot proceed.
    public enum Failure: Error, CustomStringConvertible {
        case changedAfterApply(name: String, recorded: String, current: String)
        case missingFile(version: Int, name: String)
        case failed(name: String, underlying: Error)

        public var description: String {
            switch self {
            case .changedAfterApply(let name, let recorded, let current):
                return "migration \(name) was changed after it was applied (recorded sha256 \(recorded.prefix(12))…, file now \(current.prefix(12))…); add a new migration instead of editing an applied one"
            case .missingFile(let version, let name):
                return "migration \(name) (version \(version)) is applied in the database but missing from this build"
            case .failed(let name, let underlying):
                return "migration \(name) failed and was rolled back: \(underlying)"
            }
        }
    }

    public let database: PostgresConnection
    public let files: [MigrationFiles.File]
    /// The job role's grants script applied after the files, or nil to leave privileges alone.
    public let jobRoleGrants: String?

    /// A migrator for `files` and `jobRoleGrants`. By default both are the share folder's (`ShareDirectory`): the
    /// shipped migrations and the shipped grants; given files come with no grants unless they are given too (a
    /// partial or made-up migration set is not the schema the grants describe).
    public init(database: PostgresConnection, files: [MigrationFiles.File]? = nil, jobRoleGrants: String? = nil) throws {
        self.database = database
        if let files {
            self.files = files
            self.jobRoleGrants = jobRoleGrants
        } else {
            self.files = try Self.shippedFiles()
            self.jobRoleGrants = try jobRoleGrants ?? Self.shippedJobRoleGrants()
        }
    }

    /// The migration files shipped with this binary: `migrations` of its share folder (`ShareDirectory.current()`).
    public static func shippedFiles(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [MigrationFiles.File] {
        let folder = try ShareDirectory.current(environment: environment).migrations
        guard FileManager.default.fileExists(atPath: folder.path) else {
            throw ShareDirectory.NotFound(description: "the migrations folder \(folder.path) is missing (install with make install, "
                                           + "or set \(ShareDirectory.environmentVariable))")
        }
        return try MigrationFiles.load(from: folder)
    }

    /// The job role's grants shipped with this binary: `job_role_grants.sql` of its share folder.
    public static func shippedJobRoleGrants(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        let file = try ShareDirectory.current(environment: environment).jobRoleGrants
        do {
            return try String(contentsOf: file, encoding: .utf8)
        } catch {
            throw ShareDirectory.NotFound(description: "the job role's grants \(file.path) cannot be read (install with make install, "
                                           + "or set \(ShareDirectory.environmentVariable)): \(error.localizedDescription)")
        }
    }

    /// Each file's state; throws nothing for changed files (they show as `changed`).
    public func status() throws -> [Status] {
        let applied = try appliedMigrations()
        var statuses: [Status] = []
        for file in files {
            let checksum = try self.checksum(file.sql)
            if let record = applied[file.version] {
                statuses.append(Status(version: file.version, name: file.name,
                                       state: record.checksum == checksum ? .applied : .changed, appliedAt: record.appliedAt))
            } else {
                statuses.append(Status(version: file.version, name: file.name, state: .pending, appliedAt: nil))
            }
        }
        for (version, record) in applied where !files.contains(where: { $0.version == version }) {
            statuses.append(Status(version: version, name: record.name, state: .missing, appliedAt: record.appliedAt))
        }
        return statuses.sorted { $0.version < $1.version }
    }

    /// Applies the pending files in order and returns their names; refuses when an applied file changed.
    @discardableResult
    public func migrate(dryRun: Bool = false) throws -> [String] {
        let statuses = try status()
        for status in statuses {
            switch status.state {
            case .changed:
                let applied = try appliedMigrations()[status.version]
                let current = try files.first { $0.version == status.version }.map { try checksum($0.sql) } ?? ""
                throw Failure.changedAfterApply(name: status.name, recorded: applied?.checksum ?? "", current: current)
            case .missing:
                throw Failure.missingFile(version: status.version, name: status.name)
            case .applied, .pending:
                continue
            }
        }
        let pending = files.filter { file in statuses.contains { $0.version == file.version && $0.state == .pending } }
        guard !dryRun else { return pending.map(\.name) }
        for file in pending {
            do {
                try database.transaction { db in
                    try ensureBookkeeping(db)
                    try db.executeScript(file.sql)
                    try db.execute("INSERT INTO schema_migration (version, name, checksum) VALUES ($1, $2, $3)",
                                   [file.version, file.name, try checksum(file.sql)])
                }
            } catch {
                throw Failure.failed(name: file.name, underlying: error)
            }
        }
        if let jobRoleGrants {
            do {
                try database.transaction { db in try db.executeScript(jobRoleGrants) }
            } catch {
                throw Failure.failed(name: "job_role_grants.sql", underlying: error)
            }
        }
        return pending.map(\.name)
    }

    private func ensureBookkeeping(_ db: PostgresConnection) throws {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS schema_migration (
                version integer PRIMARY KEY, name text NOT NULL, checksum text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now())
            """)
    }

    private func appliedMigrations() throws -> [Int: (name: String, checksum: String, appliedAt: Date)] {
        let present = try database.query("SELECT to_regclass('schema_migration') IS NOT NULL AS present").first
        guard try present?.decode(Bool.self, "present") == true else { return [:] }
        var applied: [Int: (name: String, checksum: String, appliedAt: Date)] = [:]
        for row in try database.query("SELECT version, name, checksum, applied_at FROM schema_migration").rows {
            applied[try row.decode(Int.self, "version")] =
                (try row.decode(String.self, "name"), try row.decode(String.self, "checksum"), try row.decode(Date.self, "applied_at"))
        }
        return applied
    }

    /// SHA-256 of the file's bytes, computed by the server so no extra library is needed.
    private func checksum(_ sql: String) throws -> String {
        let row = try database.query("SELECT encode(sha256($1::bytea), 'hex') AS digest", [Array(sql.utf8)]).first
        return try row?.decode(String.self, "digest") ?? ""
    }
}
