import Foundation
import Postgres

/// The one machine-readable line a job prints on stdout when it ends.
struct JobSummary {
    let job: String
    let exitCode: JobExitCode
    let runID: Int64?
    let asOf: Date
    let dryRun: Bool
    let durationMilliseconds: Int
    let counts: [String: Int]
    let notes: [String: String]
    let error: String?

    /// JSON with sorted keys: `{"as_of":…,"counts":{…},"dry_run":…,"exit_code":…,"job":…,…}`.
    var line: String {
        var fields: [(String, String)] = [
            ("as_of", JSONLine.quote(PostgresTimestamp.iso8601(asOf))),
            ("counts", "{" + counts.keys.sorted().map { JSONLine.quote($0) + ":" + String(counts[$0] ?? 0) }.joined(separator: ",") + "}"),
            ("dry_run", dryRun ? "true" : "false"),
            ("duration_ms", String(durationMilliseconds)),
            ("exit_code", String(exitCode.rawValue)),
            ("job", JSONLine.quote(job)),
            ("run_id", runID.map { String($0) } ?? "null"),
            ("status", JSONLine.quote(exitCode == .locked ? "locked" : exitCode.runStatus)),
        ]
        if let error { fields.append(("error", JSONLine.quote(error))) }
        for (key, value) in notes where fields.allSatisfy({ $0.0 != key }) { fields.append((key, JSONLine.quote(value))) }
        fields.sort { $0.0 < $1.0 }
        return "{" + fields.map { JSONLine.quote($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }
}
