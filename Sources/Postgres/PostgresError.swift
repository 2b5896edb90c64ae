/// An error from the database layer, carrying libpq's own message and the server's SQLSTATE.
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    /// Where in the conversation with the server the error happened.
    public enum Kind: String, Sendable {
        case connection, query, copy, decoding, usage
    }

    public let kind: Kind
    /// The five-character SQLSTATE (e.g. `23505` unique_violation), when the server sent one.
    public let sqlState: String?
    public let message: String
    public let detail: String?
    /// The statement (never its parameters) that failed, shortened for logs.
    public let statement: String?

    /// Makes an error; `statement` is kept to its first 200 characters.
    public init(_ kind: Kind, message: String, sqlState: String? = nil, detail: String? = nil, statement: String? = nil) {
        self.kind = kind
        self.message = message.trimmingTrailingWhitespace()
        self.sqlState = sqlState
        self.detail = detail
        self.statement = statement.map { String($0.prefix(200)) }
    }

    /// True for unique_violation (23505).
    public var isUniqueViolation: Bool { sqlState == "23505" }

    public var description: String {
        var text = "postgres \(kind.rawValue) error"
        if let sqlState { text += " [\(sqlState)]" }
        text += ": \(message)"
        if let detail, !detail.isEmpty { text += " (\(detail))" }
        if let statement { text += " in: \(statement)" }
        return text
    }
}

extension String {
    func trimmingTrailingWhitespace() -> String {
        var copy = self
        while let last = copy.last, last.isWhitespace { copy.removeLast() }
        return copy
    }
}
