import Foundation
import Postgres
import TestSupport

/// One migrated database for this test target, created once; each test opens its own connection.
enum PostgresTestDatabase {
    static let configuration: Result<PostgresConfiguration, any Error> = Result {
        let (configuration, connection) = try TestDatabase.migrated("test_postgres")
        connection.close()
        return configuration
    }

    static func connect() throws -> PostgresConnection {
        try PostgresConnection(configuration: try configuration.get())
    }
}
