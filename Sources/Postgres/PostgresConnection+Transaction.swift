extension PostgresConnection {
    /// Runs `body` in one transaction: COMMIT when it returns, ROLLBACK when it throws (then rethrows).
    ///
    /// BEGIN is queued, not sent: it travels with the body's first statement, and COMMIT with the statements the body
    /// queued (`enqueue`), so a transaction costs no round trip of its own. A body that sent nothing sends nothing.
    public func transaction<T>(isolation: String? = nil, _ body: (PostgresConnection) throws -> T) throws -> T {
        guard !isInTransaction else {
            throw PostgresError(.usage, message: "a transaction is already open on this connection")
        }
        queued = [try EncodedStatement(PostgresStatement(isolation.map { "BEGIN ISOLATION LEVEL \($0)" } ?? "BEGIN"))]
        transactionOpen = true
        defer { transactionOpen = false }
        do {
            let value = try body(self)
            if queued.count == 1 && !serverTransactionOpen {
                queued.removeAll()   // only the BEGIN: nothing to commit
            } else {
                try execute("COMMIT")
            }
            return value
        } catch {
            queued.removeAll()
            if serverTransactionOpen { _ = try? execute("ROLLBACK") }
            throw error
        }
    }
}
