import Foundation
import JobKit
import Postgres

/// A private database on the harness's PostgreSQL (started by `make test`), one per test suite.
public enum TestDatabase {
    /// Why a test cannot reach its database.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// The harness's server settings; fails with a hint when the suite was not started by `make test`.
    public static func serverConfiguration() throws -> PostgresConfiguration {
        let environment = JobEnvironment()
        guard environment.optional("DATABASE_URL") != nil || environment.optional("PGHOST") != nil else {
            throw Unavailable(description: "no database: run the tests with `make test`, which starts PostgreSQL under .local/pg and sets PGHOST")
        }
        return try environment.databaseConfiguration(applicationName: "iap-tests")
    }

    /// Drops and recreates database `name` and returns settings that reach it.
    public static func fresh(_ name: String) throws -> PostgresConfiguration {
        let server = try serverConfiguration()
        let admin = try PostgresConnection(configuration: server.withDatabase("postgres"))
        defer { admin.close() }
        let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        try admin.execute("DROP DATABASE IF EXISTS \(quoted) WITH (FORCE)")
        try admin.execute("CREATE DATABASE \(quoted)")
        return server.withDatabase(name)
    }

    /// A fresh database with every bundled migration applied, and a connection to it.
    public static func migrated(_ name: String) throws -> (PostgresConfiguration, PostgresConnection) {
        let configuration = try fresh(name)
        let connection = try PostgresConnection(configuration: configuration)
        try Migrator(database: connection).migrate()
        return (configuration, connection)
    }
}
