import CLibpq

/// The rows of one statement, owning its `PGresult` (cleared exactly once, in deinit).
public final class PostgresResult: @unchecked Sendable {
    // Immutable after construction; libpq results are safe to read from any thread.
    private let handle: OpaquePointer
    /// Number of rows returned.
    public let count: Int
    /// Column names in order.
    public let columns: [String]

    private init(handle: OpaquePointer) {
        self.handle = handle
        self.count = Int(PQntuples(handle))
        self.columns = (0..<PQnfields(handle)).map { PQfname(handle, $0).map { String(cString: $0) } ?? "" }
    }

    deinit { PQclear(handle) }

    /// Wraps a result, turning any failure status into a `PostgresError` with SQLSTATE and libpq's message.
    static func checked(_ result: OpaquePointer?, connection: OpaquePointer, statement: String) throws -> PostgresResult {
        guard let result else {
            throw PostgresError(.query, message: String(cString: PQerrorMessage(connection)), statement: statement)
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY, PGRES_COPY_IN, PGRES_COPY_OUT:
            return PostgresResult(handle: result)
        default:
            let error = PostgresError(
                .query,
                message: field(result, diagnostic("M")) ?? String(cString: PQresultErrorMessage(result)),
                sqlState: field(result, diagnostic("C")),
                detail: field(result, diagnostic("D")),
                statement: statement)
            PQclear(result)
            throw error
        }
    }

    /// libpq's PG_DIAG_* codes are character macros that Swift does not import.
    private static func diagnostic(_ code: Unicode.Scalar) -> Int32 { Int32(code.value) }

    private static func field(_ result: OpaquePointer, _ code: Int32) -> String? {
        PQresultErrorField(result, code).map { String(cString: $0) }
    }

    /// Rows affected by INSERT/UPDATE/DELETE/COPY (0 for other statements).
    public var affectedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    /// The rows, each a light view into this result.
    public var rows: [PostgresRow] { (0..<count).map { PostgresRow(result: self, index: $0) } }

    /// The first row, or nil when there is none.
    public var first: PostgresRow? { count > 0 ? PostgresRow(result: self, index: 0) : nil }

    /// Every row as the server's text, by position (nil for NULL): the fast path for a client that formats whole rows.
    public func textRows() -> [[String?]] {
        let width = Int32(columns.count)
        return (0..<count).map { row in (0..<width).map { text(row: row, column: $0) } }
    }

    func columnIndex(_ name: String) throws -> Int32 {
        let index = PQfnumber(handle, "\"\(name)\"")
        guard index >= 0 else { throw PostgresError(.decoding, message: "no column named '\(name)' in the result") }
        return index
    }

    func isNull(row: Int, column: Int32) -> Bool { PQgetisnull(handle, Int32(row), column) == 1 }

    func text(row: Int, column: Int32) -> String? {
        guard !isNull(row: row, column: column) else { return nil }
        return String(cString: PQgetvalue(handle, Int32(row), column))
    }

    func columnName(_ column: Int32) -> String { columns[Int(column)] }
}
