import Foundation
import Postgres

/// Configuration read from environment variables; errors name the variable.
public struct JobEnvironment: Sendable {
    public let variables: [String: String]

    /// Wraps a variable dictionary (the process environment by default).
    public init(_ variables: [String: String] = ProcessInfo.processInfo.environment) {
        self.variables = variables
    }

    /// The value of a variable that must be set and non-empty.
    public func require(_ name: String, purpose: String) throws -> String {
        guard let value = variables[name], !value.isEmpty else {
            throw JobError.configuration("missing environment variable \(name) (\(purpose))")
        }
        return value
    }

    /// The value of an optional variable; empty counts as unset.
    public func optional(_ name: String) -> String? {
        variables[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Reads a secret from the file whose path the variable names; the secret never travels in argv or logs. A file
    /// group or others may read or write (mode & 0o077 ≠ 0) is refused before it is read (exit 2).
    public func secretFromFile(_ name: String, purpose: String) throws -> Data {
        let path = try require(name, purpose: purpose)
        if let refusal = SecretFileMode.refusal(variable: name, path: path) { throw JobError.configuration(refusal) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw JobError.configuration("\(name) names '\(path)', which cannot be read (\(purpose))")
        }
        return data
    }

    /// The database settings: `DATABASE_URL`, or libpq's `PG*` variables; neither is an error naming both.
    public func databaseConfiguration(applicationName: String) throws -> PostgresConfiguration {
        let pgVariables = ["PGHOST", "PGDATABASE", "PGSERVICE", "PGHOSTADDR"]
        guard optional("DATABASE_URL") != nil || pgVariables.contains(where: { optional($0) != nil }) else {
            throw JobError.configuration(
                "missing environment variable DATABASE_URL (or the libpq variables PGHOST / PGDATABASE): where is the database?")
        }
        // libpq only warns about, then ignores, a password file others can read; refuse it instead.
        if let passfile = optional("PGPASSFILE"), let refusal = SecretFileMode.refusal(variable: "PGPASSFILE", path: passfile) {
            throw JobError.configuration(refusal)
        }
        return PostgresConfiguration.fromEnvironment(variables, applicationName: applicationName)
    }
}
