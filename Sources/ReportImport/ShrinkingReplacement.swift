/// A file that would replace a report's current file with fewer rows: refused unless `--allow-shrink`, because a
/// store never withdraws rows from a report it corrects, while a download cut short (or a file copied while it was
/// being written) looks exactly like this.
public struct ShrinkingReplacement: Error, Sendable, Equatable, CustomStringConvertible {
    /// The new file's name.
    public var file: String
    /// The name of the current file it would replace.
    public var replaces: String
    /// The report key both files share.
    public var reportKey: String
    /// Rows of the new file.
    public var rows: Int
    /// Rows of the file it would replace.
    public var previousRows: Int

    public var description: String {
        "\(file): not imported: it would replace \(replaces) (report \(reportKey)) with \(rows) rows instead of \(previousRows), "
            + "which is how a truncated download looks; if the store really sent fewer rows, import it again with --allow-shrink "
            + "(the replacement is audited with both row counts)"
    }
}
