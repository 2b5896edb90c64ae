import Foundation
import JobKit
import Postgres

/// A test database set up as an installation is: `deploy/postgres/roles.sql` applied by the superuser, the
/// migrations run as `iap_owner`, and settings for the three roles (the superuser for fixtures and assertions,
/// `iap_owner` for `migrate`, `iap_job` for every other job).
public struct RoleDatabase: Sendable {
    /// The owner role, which runs `migrate`.
    public static let owner = "iap_owner"
    /// The job role, which every other job connects as.
    public static let job = "iap_job"

    /// The database's name.
    public let name: String
    /// The harness's superuser (fixtures, assertions).
    public let superuser: PostgresConfiguration
    /// `iap_owner`.
    public let ownerConfiguration: PostgresConfiguration
    /// `iap_job`.
    public let jobConfiguration: PostgresConfiguration

    /// The repository's roles.sql (test support reads the source tree; the jobs never do).
    public static let rolesSQL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("deploy/postgres/roles.sql")

    /// Serialises roles.sql across the suites that run in parallel in this process.
    private static let rolesScriptLock = NSLock()

    /// Applies roles.sql on `admin`'s database, one suite at a time: roles belong to the cluster, not to a database,
    /// so two suites applying it at once both ALTER the same `pg_authid` rows and one fails with "tuple concurrently
    /// updated".
    public static func applyRoles(on admin: PostgresConnection) throws {
        let script = try String(contentsOf: rolesSQL, encoding: .utf8)
        try rolesScriptLock.withLock { try admin.executeScript(script) }
    }

    /// Drops and recreates `name`, applies roles.sql as the superuser and, when `migrate` is true, every migration
    /// as `iap_owner`.
    public static func fresh(_ name: String, migrate: Bool = true) throws -> RoleDatabase {
        let superuser = try TestDatabase.fresh(name)
        let admin = try PostgresConnection(configuration: superuser)
        defer { admin.close() }
        try applyRoles(on: admin)
        let database = RoleDatabase(name: name, superuser: superuser,
                                    ownerConfiguration: superuser.asUser(owner), jobConfiguration: superuser.asUser(job))
        if migrate {
            let ownerConnection = try PostgresConnection(configuration: database.ownerConfiguration)
            defer { ownerConnection.close() }
            try Migrator(database: ownerConnection).migrate()
        }
        return database
    }

    /// Environment variables that make a job (in-process or a child process) connect to this database as `role`.
    public func environment(as role: String, base: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        var variables = base
        variables["DATABASE_URL"] = nil
        variables["PGDATABASE"] = name
        variables["PGUSER"] = role
        return variables
    }
}

extension PostgresConfiguration {
    /// A copy that logs in as `role` (the harness's server trusts its unix socket, so no password).
    public func asUser(_ role: String) -> PostgresConfiguration {
        var copy = self
        copy.keywords["user"] = role
        return copy
    }
}
