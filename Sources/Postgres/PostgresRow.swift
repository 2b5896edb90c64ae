/// One row of a `PostgresResult`, decoded by column name into Swift types.
public struct PostgresRow: Sendable {
    let result: PostgresResult
    let index: Int

    /// Decodes a non-NULL column; NULL is an error naming the column.
    public func decode<T: PostgresDecodable>(_ type: T.Type = T.self, _ column: String) throws -> T {
        guard let value = try decodeIfPresent(type, column) else {
            throw PostgresError(.decoding, message: "column '\(column)' is NULL, expected \(T.self)")
        }
        return value
    }

    /// Decodes a column that may be NULL.
    public func decodeIfPresent<T: PostgresDecodable>(_ type: T.Type = T.self, _ column: String) throws -> T? {
        let position = try result.columnIndex(column)
        guard let text = result.text(row: index, column: position) else { return nil }
        do {
            return try T(postgresText: text)
        } catch {
            throw PostgresError(.decoding, message: "column '\(column)': \(error)")
        }
    }

    /// Decodes a text column into a String-backed enum (e.g. a PostgreSQL enum), naming unknown labels.
    public func decode<T: RawRepresentable>(_ type: T.Type = T.self, _ column: String) throws -> T where T.RawValue == String {
        let raw: String = try decode(String.self, column)
        guard let value = T(rawValue: raw) else {
            throw PostgresError(.decoding, message: "column '\(column)': '\(raw)' is not a \(T.self)")
        }
        return value
    }

    /// Decodes an exact `numeric` (or integer) column into Int64 micros.
    public func micros(_ column: String) throws -> Int64 {
        try decode(NumericMicros.self, column).micros
    }

    /// Decodes an exact `numeric` column that may be NULL into Int64 micros.
    public func microsIfPresent(_ column: String) throws -> Int64? {
        try decodeIfPresent(NumericMicros.self, column)?.micros
    }

    /// True when the column is SQL NULL.
    public func isNull(_ column: String) throws -> Bool {
        result.isNull(row: index, column: try result.columnIndex(column))
    }
}
