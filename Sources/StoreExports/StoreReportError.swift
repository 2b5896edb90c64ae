/// Why a store report file was rejected: the file, the 1-based line and column where the problem is,
/// and the reason. A rejected file is rejected whole; no rows of it are returned.
///
/// Line and column count in the decoded text (after decompression); the column is the 1-based field
/// number for delimited rows. Container problems (a damaged archive) name the line and column that the
/// readable part of the content reached.
public struct StoreReportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file name (for an archive member: `archive.zip/member.csv`).
    public let file: String
    /// 1-based line of the problem.
    public let line: Int
    /// 1-based column (field number in delimited rows) of the problem.
    public let column: Int
    /// What is wrong, in words.
    public let reason: String

    /// An error at `line`, `column` of `file`.
    public init(file: String, line: Int, column: Int, reason: String) {
        self.file = file
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// `file:line:column: reason`.
    public var description: String { "\(file):\(line):\(column): \(reason)" }
}
