import Postgres

extension JobContext {
    /// Runs `body` in one transaction on the job's connection and commits it; under `--dry-run` the same statements
    /// run and the transaction is rolled back, so whatever `body` counted is what a real run at the same instant
    /// would write, and nothing is written.
    public func transactionRolledBackOnDryRun(_ body: (PostgresConnection) throws -> Void) throws {
        do {
            try database.transaction { db in
                try body(db)
                if dryRun { throw DryRunRollback() }
            }
        } catch is DryRunRollback {
            // The dry run's statements are rolled back; their counts stand.
        }
    }
}

/// Thrown inside a dry run's transaction to roll it back.
private struct DryRunRollback: Error {}
