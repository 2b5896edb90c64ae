import CLibpq

/// One statement with its `$1…$n` parameters, for `PostgresConnection.pipeline` and `enqueue`.
public struct PostgresStatement {
    public let sql: String
    public let parameters: [any PostgresEncodable]

    /// A statement and its parameters.
    public init(_ sql: String, _ parameters: [any PostgresEncodable] = []) {
        self.sql = sql
        self.parameters = parameters
    }
}

/// A statement whose parameters are already in wire form (encoded, and checked for NUL bytes, once).
struct EncodedStatement {
    let sql: String
    let parameters: [PostgresParameter]

    init(_ statement: PostgresStatement) throws {
        sql = statement.sql
        parameters = try PostgresConnection.encode(statement.parameters, statement.sql)
    }
}

extension PostgresConnection {
    /// Runs `statements` in order in one round trip (libpq pipeline mode) and returns their results in order.
    /// Each statement runs as if sent alone (inside an open transaction, in that transaction; outside one, the
    /// statements share one implicit transaction). The first failure is thrown once the whole pipeline has been
    /// read; the statements after it did not run. Meant for a handful of statements whose parameters and rows fit
    /// the socket buffers: the connection is blocking, so an enormous pipeline could wait on the server forever.
    @discardableResult
    public func pipeline(_ statements: [PostgresStatement]) throws -> [PostgresResult] {
        let all = try queued + statements.map(EncodedStatement.init)
        queued.removeAll()
        return Array(try runPipeline(all).suffix(statements.count))
    }

    /// Queues a statement whose result nobody needs; it is sent with the next statement in the same round trip
    /// (or with COMMIT). Only inside `transaction`, so a queued write commits or rolls back with the rest; an error
    /// it raises is thrown by the statement it travels with.
    public func enqueue(_ statement: PostgresStatement) throws {
        guard transactionOpen else {
            throw PostgresError(.usage, message: "enqueue needs an open transaction", statement: statement.sql)
        }
        queued.append(try EncodedStatement(statement))
    }

    /// Sends the queued statements now (one round trip); nothing when none are queued.
    func flushQueue() throws {
        guard !queued.isEmpty else { return }
        let statements = queued
        queued.removeAll()
        try runPipeline(statements)
    }

    @discardableResult
    func runPipeline(_ statements: [EncodedStatement]) throws -> [PostgresResult] {
        let handle = try liveHandle()
        guard !statements.isEmpty else { return [] }
        // Statements are prepared once per connection, before the pipeline (a Parse of its own the first time).
        let encoded = statements.map(\.parameters)
        let names = try statements.map { statement in
            statement.parameters.isEmpty ? nil : try preparedName(for: statement.sql, parameterCount: statement.parameters.count, handle: handle)
        }
        guard PQenterPipelineMode(handle) == 1 else {
            throw PostgresError(.query, message: "could not enter pipeline mode: \(String(cString: PQerrorMessage(handle)))")
        }
        defer { PQexitPipelineMode(handle) }
        for (index, statement) in statements.enumerated() {
            let sent: Int32
            if let name = names[index] {
                sent = ParameterBuffer(encoded[index]).withArrays { values, lengths, formats in
                    PQsendQueryPrepared(handle, name, Int32(encoded[index].count), values, lengths, formats, 0)
                }
            } else {
                sent = PQsendQueryParams(handle, statement.sql, 0, nil, nil, nil, nil, 0)
            }
            guard sent == 1 else {
                // A send fails only when the connection itself has failed; libpq's message says why.
                throw PostgresError(.query, message: String(cString: PQerrorMessage(handle)), statement: statement.sql)
            }
        }
        guard PQpipelineSync(handle) == 1 else {
            throw PostgresError(.query, message: String(cString: PQerrorMessage(handle)), statement: statements[0].sql)
        }
        return try readPipeline(statements, handle: handle)
    }

    /// Reads one result per statement, then the sync point; throws the first failure after reading everything.
    private func readPipeline(_ statements: [EncodedStatement], handle: OpaquePointer) throws -> [PostgresResult] {
        var results: [PostgresResult] = []
        var failure: PostgresError?
        for statement in statements {
            let raw = PQgetResult(handle)
            if let raw, PQresultStatus(raw) == PGRES_PIPELINE_ABORTED {
                PQclear(raw)
            } else {
                do {
                    results.append(try PostgresResult.checked(raw, connection: handle, statement: statement.sql))
                } catch let error as PostgresError {
                    if failure == nil { failure = error }
                    // "cached plan must not change result type" after DDL: prepare the statement afresh next time.
                    if error.sqlState == "0A000" { abandonPrepared(statement.sql) }
                }
            }
            // Each statement's results end with a null result.
            while let extra = PQgetResult(handle) { PQclear(extra) }
        }
        // The sync point: PGRES_PIPELINE_SYNC.
        while let sync = PQgetResult(handle) {
            let status = PQresultStatus(sync)
            PQclear(sync)
            if status == PGRES_PIPELINE_SYNC { break }
        }
        if let failure { throw failure }
        return results
    }
}
