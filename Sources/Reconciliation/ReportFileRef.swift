import Postgres

/// A staging file a run compared: its id, kind, period and content hash (recorded with the run).
public struct ReportFileRef: Sendable, Hashable, Comparable {
    public var id: Int64
    public var kind: String
    public var period: String
    public var sha256: String

    public static func < (a: ReportFileRef, b: ReportFileRef) -> Bool { a.id < b.id }

    /// The current (not replaced) files of `kinds` for `periods`; with `only`, just those ids (a closed period's
    /// files), replaced or not.
    public static func current(_ database: PostgresConnection, kinds: [String], periods: [String],
                               only: Set<Int64>? = nil) throws -> [ReportFileRef] {
        let rows = try database.query("""
            SELECT id, kind, period, content_sha256 FROM report_file
            WHERE kind = ANY($1::text[]) AND period = ANY($2::text[]) AND replaced_by IS NULL ORDER BY id
            """, [PostgresTextArray(kinds), PostgresTextArray(periods)]).rows
        var result = try rows.map {
            ReportFileRef(id: try $0.decode(Int64.self, "id"), kind: try $0.decode(String.self, "kind"),
                          period: try $0.decode(String.self, "period"), sha256: try $0.decode(String.self, "content_sha256"))
        }
        if let only { result = result.filter { only.contains($0.id) } }
        return result
    }
}
