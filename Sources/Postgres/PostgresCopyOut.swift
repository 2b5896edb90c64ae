import CLibpq

extension PostgresConnection {
    /// Runs `COPY (…) TO STDOUT` (text format) and hands each row's bytes, without its newline, to `body` as the
    /// server sends them, so a large result is never held whole. Returns the number of rows. If `body` throws, the
    /// rest of the result is drained so the connection stays usable, and the error is rethrown; a server error
    /// (a failing row of the SELECT) is thrown with its SQLSTATE.
    @discardableResult
    public func copyOut(_ sql: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        let handle = try liveHandle()
        try flushQueue()
        _ = try PostgresResult.checked(PQexec(handle, sql), connection: handle, statement: sql)
        var rows = 0
        var failure: Error?
        var broken: Error?
        while true {
            var buffer: UnsafeMutablePointer<CChar>?
            let count = PQgetCopyData(handle, &buffer, 0)
            if count == -1 { break }
            guard count >= 0, let buffer else {
                broken = PostgresError(.copy, message: String(cString: PQerrorMessage(handle)), statement: sql)
                break
            }
            defer { PQfreemem(buffer) }
            guard failure == nil else { continue }
            var length = Int(count)
            if length > 0, buffer[length - 1] == 10 { length -= 1 }
            do {
                try body(UnsafeRawBufferPointer(start: buffer, count: length))
                rows += 1
            } catch {
                failure = error
            }
        }
        var serverError: Error?
        while let next = PQgetResult(handle) {
            do { _ = try PostgresResult.checked(next, connection: handle, statement: sql) } catch { serverError = serverError ?? error }
        }
        if let failure { throw failure }
        if let serverError { throw serverError }
        if let broken { throw broken }
        return rows
    }
}
