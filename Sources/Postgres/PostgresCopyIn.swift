import CLibpq
#if canImport(Glibc)
import Glibc
#endif

/// Streams rows into `COPY … FROM STDIN` (text format), buffering into large chunks for libpq.
public final class PostgresCopyIn {
    private let handle: OpaquePointer
    private var buffer: [UInt8] = []
    private let chunkSize = 1 << 20
    /// Rows written with `writeRow`.
    public private(set) var rowsWritten = 0

    init(handle: OpaquePointer) {
        self.handle = handle
        buffer.reserveCapacity(chunkSize + 4096)
    }

    /// Appends one row in COPY text format; nil is `\N`; tabs, newlines and backslashes are escaped.
    public func writeRow(_ fields: [String?]) throws {
        var local: [UInt8] = []
        swap(&local, &buffer)
        for (position, field) in fields.enumerated() {
            if position > 0 { local.append(9) }
            guard var field else { local.append(contentsOf: [92, 78]); continue }
            field.withUTF8 { Self.appendEscaped($0, to: &local) }
        }
        local.append(10)
        swap(&local, &buffer)
        rowsWritten += 1
        if buffer.count >= chunkSize { try flush() }
    }

    /// Appends one field's bytes with COPY text escaping (backslash, tab, newline, carriage return).
    static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var start = 0
        for index in 0..<bytes.count {
            let byte = bytes[index]
            guard byte == 92 || byte == 9 || byte == 10 || byte == 13 else { continue }
            if start < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index])) }
            start = index + 1
            switch byte {
            case 92: out.append(contentsOf: [92, 92])
            case 9: out.append(contentsOf: [92, 116])
            case 10: out.append(contentsOf: [92, 110])
            default: out.append(contentsOf: [92, 114])
            }
        }
        if start < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...])) }
    }

    /// Appends raw bytes already in the COPY statement's format (text or CSV), e.g. a file's contents.
    public func writeRaw(_ bytes: UnsafeRawBufferPointer) throws {
        if buffer.count + bytes.count > chunkSize { try flush() }
        if bytes.count >= chunkSize {
            try send(bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try send($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func send(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress else { return }
        let status = PQputCopyData(handle, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
        guard status == 1 else {
            throw PostgresError(.copy, message: String(cString: PQerrorMessage(handle)))
        }
    }
}

extension PostgresConnection {
    /// Runs `COPY … FROM STDIN`, lets `body` stream the data, and returns the number of rows loaded.
    /// If `body` throws, the COPY is aborted so the server keeps nothing, and the error is rethrown.
    @discardableResult
    public func copyIn(_ sql: String, _ body: (PostgresCopyIn) throws -> Void) throws -> Int {
        let handle = try liveHandle()
        try flushQueue()
        let start = try PostgresResult.checked(PQexec(handle, sql), connection: handle, statement: sql)
        _ = start
        Self.widenSendBuffer(handle)
        let writer = PostgresCopyIn(handle: handle)
        var failure: Error?
        do {
            try body(writer)
            try writer.flush()
        } catch {
            failure = error
        }
        let endStatus = failure.map { PQputCopyEnd(handle, "aborted by client: \($0)") } ?? PQputCopyEnd(handle, nil)
        var result: PostgresResult?
        var serverError: Error?
        while let next = PQgetResult(handle) {
            do { result = try PostgresResult.checked(next, connection: handle, statement: sql) } catch { serverError = serverError ?? error }
        }
        if let failure { throw failure }
        if let serverError { throw serverError }
        guard endStatus == 1 else { throw PostgresError(.copy, message: String(cString: PQerrorMessage(handle)), statement: sql) }
        return result?.affectedRows ?? 0
    }
}

extension PostgresConnection {
    /// The bytes a COPY's sender may queue on the socket before it waits for the server to read: up to 4 MiB, as the
    /// system allows (`net.core.wmem_max`). With the default (≈ 200 KiB on a local socket) the sender is woken only
    /// when the server has drained most of it, and on a busy machine the server then runs dry (Benchmarks/results.md,
    /// "Google month-end, evening round").
    static let copySendBuffer: Int32 = 4 << 20

    /// Widens the connection's socket send buffer for a COPY FROM STDIN (`copySendBuffer`; the kernel caps it, and a
    /// refusal leaves the default, which only costs speed).
    static func widenSendBuffer(_ handle: OpaquePointer) {
        let socket = PQsocket(handle)
        guard socket >= 0 else { return }
        var size = copySendBuffer
        _ = setsockopt(socket, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
}
