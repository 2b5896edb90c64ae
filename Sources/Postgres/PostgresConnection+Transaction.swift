extension PostgresConnection {
    /// Runs `body` in one transaction: COMMIT when it returns, ROLLBACK when it throws (then rethrows).
    public func transaction<T>(isolation: String? = nil, _ body: (PostgresConnection) throws -> T) throws -> T {
        guard !isInTransaction else {
            throw PostgresError(.usage, message: "a transaction is already open on this connection")
        }
        try execute(isolation.map { "BEGIN ISOLATION LEVEL \($0)" } ?? "BEGIN")
        do {
            let value = try body(self)
            try execute("COMMIT")
            return value
        } catch {
            if isInTransaction { _ = try? execute("ROLLBACK") }
            throw error
        }
    }
}
