/// A string constant written into SQL text, for the statements that take no parameters (`COPY (…) TO STDOUT`): in
/// single quotes, each quote doubled (the server's `standard_conforming_strings`, on since PostgreSQL 9.1, reads a
/// backslash as itself).
public enum SQLLiteral {
    /// `text` as a quoted SQL string constant.
    public static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
