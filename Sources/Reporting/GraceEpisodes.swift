import Foundation
import JobKit
import Postgres

/// `grace_hold_recovery`'s failure episodes stored per subscription (migration 0055; Reports/README.md, "Stored failure
/// episodes"). The second session fills the run's temporary `report_grace_episode_run` — the stored episodes of the
/// subscriptions that did not change since the store and the changed ones' computed, or every episode computed when
/// there is no store to read — before the report groups them, and hands the computed episodes to the job, which stores
/// them beside the spans.
enum GraceEpisodes {
    /// The function a report names to read the run's episodes: a report that does reads only the history still.
    static let relation = "report_run_grace_episode"

    /// What a run computed: the episodes as a binary COPY stream, and whose they are (the changed subscriptions' ids as
    /// a `uuid[]` text; nil: every subscription's).
    struct Computed {
        let rows: SpillFile
        let subscriptions: String?
    }

    /// The digest of `report_grace_episode`'s SQL as installed: stored episodes of another function are not read.
    private static let definition = StoreChanges.definition(of: "report_grace_episode")

    private static let columns = "subscription_id, failed_at, provider, country_code, entered_grace, entered_hold, close_kind, "
        + "closed_at, plan_id, currency, recovered_twelfths"

    /// Creates the second session's temporary tables of the episodes (`report_run_filled` is the caller's), before its
    /// read-only transaction begins (which may write them, not create them).
    static func prepare(_ connection: PostgresConnection) throws {
        try connection.execute("CREATE TEMP TABLE report_grace_episode_run (LIKE public.report_grace_episode_run)")
        try connection.execute("CREATE TEMP TABLE report_grace_episode_computed (LIKE public.report_grace_episode_run)")
    }

    /// Fills the run's episodes on `connection` (the second session, on the run's snapshot, after `prepare`) and
    /// returns those it computed: the `changes`' subscriptions' when there are changes to read and the basis's store is
    /// of this function, the others' read from the store; every subscription's otherwise.
    static func fill(_ connection: PostgresConnection, settings: ReportSettings, changes: StoreChanges?) throws -> Computed {
        let all = ReportQuery.parameters(settings)
        let (asOf, basis) = (all[0], all[4])
        let subscriptions = try changes?.readable(from: "report_stored_grace_episode", basis: basis, definition: definition,
                                                  on: connection)?.ids
        try connection.execute("""
            INSERT INTO pg_temp.report_grace_episode_computed SELECT * FROM report_grace_episode($1, $2, $3::uuid[])
            """, [asOf, basis, subscriptions])
        if let subscriptions {
            try connection.execute("""
                INSERT INTO pg_temp.report_grace_episode_run
                SELECT \(columns) FROM report_stored_grace_episode e WHERE e.basis = $1 AND NOT e.subscription_id = ANY ($2::uuid[])
                UNION ALL SELECT * FROM pg_temp.report_grace_episode_computed
                """, [basis, subscriptions])
        } else {
            try connection.execute("INSERT INTO pg_temp.report_grace_episode_run SELECT * FROM pg_temp.report_grace_episode_computed")
        }
        try connection.execute("ANALYZE pg_temp.report_grace_episode_run")
        try connection.execute("""
            INSERT INTO pg_temp.report_run_filled (relation, as_of, basis) VALUES ('grace_episode', $1, $2)
            """, [asOf, basis])
        let file = try SpillFile(purpose: "report grace episodes")
        _ = try connection.copyOutMessages("COPY pg_temp.report_grace_episode_computed TO STDOUT (FORMAT binary)") { try file.append($0) }
        return Computed(rows: file, subscriptions: subscriptions)
    }

    /// Stores `computed` as the basis's episodes in `db`'s transaction that stores the span set with this run's as-of
    /// instant and snapshot: the computed subscriptions' replaced, or every one when it computed all; with `computed`
    /// nil (the set's are unknown, or the run computed no episodes) only deletes the basis's.
    static func save(_ db: PostgresConnection, basis: String, computed: Computed?) throws {
        guard let computed else {
            _ = try db.execute("DELETE FROM report_stored_grace_episode WHERE basis = $1", [basis])
            return
        }
        if let subscriptions = computed.subscriptions {
            _ = try db.execute("DELETE FROM report_stored_grace_episode WHERE basis = $1 AND subscription_id = ANY ($2::uuid[])",
                               [basis, subscriptions])
        } else {
            _ = try db.execute("DELETE FROM report_stored_grace_episode WHERE basis = $1", [basis])
        }
        _ = try db.execute("CREATE TEMP TABLE report_grace_episode_saved (LIKE public.report_grace_episode_run) ON COMMIT DROP")
        _ = try db.copyIn("COPY pg_temp.report_grace_episode_saved FROM STDIN (FORMAT binary)") { copy in
            try computed.rows.readAll { try copy.writeRaw($0) }
        }
        _ = try db.execute("""
            INSERT INTO report_stored_grace_episode (basis, \(columns), definition)
            SELECT $1, \(columns), (\(definition)) FROM pg_temp.report_grace_episode_saved
            """, [basis])
    }
}
