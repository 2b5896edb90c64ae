import Foundation
import CLibpq

/// One libpq connection, owned by this object: `close()` (or deinit) calls `PQfinish` exactly once.
/// Not thread-safe: use one connection per task or worker.
public final class PostgresConnection {
    private var handle: OpaquePointer?
    public let configuration: PostgresConfiguration
    /// Server-side prepared statements by SQL text: parameterised statements are parsed and planned once
    /// per connection, which the projection writer's many small statements depend on.
    private var prepared: [String: String] = [:]
    private var preparedSerial = 0
    /// Statements whose results nobody waits for, sent with the next statement in one round trip (see `enqueue`).
    var queued: [EncodedStatement] = []
    /// True between `transaction`'s (possibly still queued) BEGIN and its COMMIT or ROLLBACK.
    var transactionOpen = false
    /// How many statements this connection has prepared (for tests).
    public var preparedStatementCount: Int { prepared.count }

    /// Connects, failing with libpq's message when the server cannot be reached or refuses.
    public init(configuration: PostgresConfiguration) throws {
        self.configuration = configuration
        let pairs = configuration.connectionParameters
        let keywords = pairs.map { strdup($0.0) }
        let values = pairs.map { strdup($0.1) }
        defer { (keywords + values).forEach { free($0) } }
        let keywordArray = keywords.map { UnsafePointer<CChar>($0) } + [nil]
        let valueArray = values.map { UnsafePointer<CChar>($0) } + [nil]
        let connection = PQconnectdbParams(keywordArray, valueArray, 1)
        guard let connection else {
            throw PostgresError(.connection, message: "libpq could not allocate a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError(.connection, message: message)
        }
        handle = connection
    }

    deinit {
        if let handle { PQfinish(handle) }
    }

    /// Closes the connection; later calls throw a usage error. Closing twice is harmless.
    public func close() {
        if let handle { PQfinish(handle) }
        handle = nil
    }

    /// The server process serving this connection (`pg_backend_pid()`).
    public var backendPID: Int32 {
        guard let handle else { return 0 }
        return PQbackendPID(handle)
    }

    /// True while a transaction block is open on this connection (including one whose BEGIN is still queued).
    public var isInTransaction: Bool { transactionOpen || serverTransactionOpen }

    /// True while the server has a transaction block open (a queued BEGIN does not count).
    var serverTransactionOpen: Bool {
        guard let handle else { return false }
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    func liveHandle() throws -> OpaquePointer {
        guard let handle else { throw PostgresError(.usage, message: "the connection is closed") }
        return handle
    }

    /// Runs one statement with `$1…$n` parameters and returns its rows (text format).
    @discardableResult
    public func query(_ sql: String, _ parameters: [any PostgresEncodable] = []) throws -> PostgresResult {
        let handle = try liveHandle()
        guard queued.isEmpty else {
            // Queued statements go first, in the same round trip.
            return try pipeline([PostgresStatement(sql, parameters)]).first ?? PostgresResult.checked(nil, connection: handle, statement: sql)
        }
        let encoded = try Self.encode(parameters, sql)
        guard !encoded.isEmpty else {
            return try PostgresResult.checked(PQexecParams(handle, sql, 0, nil, nil, nil, nil, 0), connection: handle, statement: sql)
        }
        let name = try preparedName(for: sql, parameterCount: encoded.count, handle: handle)
        let result = ParameterBuffer(encoded).withArrays { values, lengths, formats in
            PQexecPrepared(handle, name, Int32(encoded.count), values, lengths, formats, 0)
        }
        do {
            return try PostgresResult.checked(result, connection: handle, statement: sql)
        } catch let error as PostgresError where error.sqlState == "0A000" && !isInTransaction {
            // "cached plan must not change result type" after DDL: forget the statement and run it afresh once.
            try forget(sql, handle: handle)
            return try query(sql, parameters)
        }
    }

    /// The parameters' wire form; a text parameter holding a NUL byte is refused.
    static func encode(_ parameters: [any PostgresEncodable], _ sql: String) throws -> [PostgresParameter] {
        let encoded = parameters.map(\.postgresParameter)
        for (position, parameter) in encoded.enumerated() {
            // Text parameters travel as C strings: a NUL byte would silently cut the value short.
            if case .text(let bytes) = parameter, bytes.contains(0) {
                throw PostgresError(.usage, message: "parameter $\(position + 1) contains a NUL byte, which PostgreSQL text cannot store", statement: sql)
            }
        }
        return encoded
    }

    func preparedName(for sql: String, parameterCount: Int, handle: OpaquePointer) throws -> String {
        if let name = prepared[sql] { return name }
        preparedSerial += 1
        let name = "s\(preparedSerial)"
        _ = try PostgresResult.checked(PQprepare(handle, name, sql, Int32(parameterCount), nil), connection: handle, statement: sql)
        prepared[sql] = name
        return name
    }

    /// Forgets a statement's prepared name without telling the server (inside a pipeline); it is prepared anew next time.
    func abandonPrepared(_ sql: String) { prepared.removeValue(forKey: sql) }

    func forget(_ sql: String, handle: OpaquePointer) throws {
        guard let name = prepared.removeValue(forKey: sql) else { return }
        _ = try PostgresResult.checked(PQexec(handle, "DEALLOCATE \(name)"), connection: handle, statement: "DEALLOCATE")
    }

    /// Runs one statement and returns how many rows it affected.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [any PostgresEncodable] = []) throws -> Int {
        try query(sql, parameters).affectedRows
    }

    /// Runs a script of several statements without parameters (migrations), in the simple protocol.
    public func executeScript(_ sql: String) throws {
        let handle = try liveHandle()
        try flushQueue()
        var result = PQexec(handle, sql)
        var firstError: PostgresError?
        while let current = result {
            do { _ = try PostgresResult.checked(current, connection: handle, statement: sql) } catch let error as PostgresError {
                if firstError == nil { firstError = error }
            }
            result = PQgetResult(handle)
        }
        if let firstError { throw firstError }
    }
}

/// C arrays of parameter values that live for the duration of one libpq call.
struct ParameterBuffer {
    let parameters: [PostgresParameter]

    init(_ parameters: [PostgresParameter]) { self.parameters = parameters }

    func withArrays<R>(_ body: ([UnsafePointer<CChar>?], [Int32], [Int32]) -> R) -> R {
        var storage: [UnsafeMutablePointer<CChar>?] = []
        storage.reserveCapacity(parameters.count)
        var lengths: [Int32] = []
        var formats: [Int32] = []
        defer { storage.forEach { $0?.deallocate() } }
        for parameter in parameters {
            switch parameter {
            case .null:
                storage.append(nil); lengths.append(0); formats.append(0)
            case .text(let bytes), .binary(let bytes):
                let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
                bytes.withUnsafeBytes { source in
                    UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress ?? UnsafeRawPointer(buffer), byteCount: source.count)
                }
                buffer[bytes.count] = 0
                storage.append(buffer)
                lengths.append(Int32(bytes.count))
                if case .binary = parameter { formats.append(1) } else { formats.append(0) }
            }
        }
        return body(storage.map { $0.map { UnsafePointer($0) } }, lengths, formats)
    }
}
