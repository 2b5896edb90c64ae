import CLibpq

extension PostgresConnection {
    /// Runs `COPY (…) TO STDOUT` (text format) and hands each row's bytes, without its newline, to `body` as the
    /// server sends them, so a large result is never held whole. Returns the number of rows. If `body` throws, the
    /// rest of the result is drained so the connection stays usable, and the error is rethrown; a server error
    /// (a failing row of the SELECT) is thrown with its SQLSTATE.
    @discardableResult
    public func copyOut(_ sql: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        try copyOutMessages(sql) { message in
            var length = message.count
            if length > 0, message[length - 1] == 10 { length -= 1 }
            try body(UnsafeRawBufferPointer(rebasing: message[0..<length]))
        }
    }

    /// Runs `COPY (…) TO STDOUT` in any format and hands each message the server sends (a row; in binary format
    /// the first also carries the file header, and the last is the trailer: `BinaryCopyReader` reads them) to
    /// `body` as it is. Returns the number of messages. Failures as `copyOut`.
    @discardableResult
    public func copyOutMessages(_ sql: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
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
            do {
                try body(UnsafeRawBufferPointer(start: buffer, count: Int(count)))
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
