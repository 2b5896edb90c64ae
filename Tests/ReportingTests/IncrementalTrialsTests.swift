import Foundation
import JobKit
import Postgres
import Reporting
import TestSupport
import Testing

/// Each subscription's trial (`report_trial`, migration 0051) is stored with its spans and reused while its span
/// digest is unchanged (Reports/README.md, "Stored trials"): a night recomputes only the touched subscriptions' trials,
/// stores them, and writes `trial_conversion` byte-identical to `--full`; and the file does read the stored rows (a
/// stored row altered by hand shows in the next night's file), so a night that recomputed every trial would fail here.
@Suite(.serialized) struct IncrementalTrialsTests {
    /// The stored trials of the basis against every trial computed now: rows on one side only.
    static let storeDifference = """
        SELECT (SELECT count(*) FROM (SELECT subscription_id, provider, trial_at, trial_product, trial_country, converted_at,
                                             failed_at, ended_at, off_at, on_at
                                      FROM report_stored_trial WHERE basis = 'corrected'
                                      EXCEPT SELECT * FROM report_trial($1::timestamptz, 'corrected', NULL)) a)
             + (SELECT count(*) FROM (SELECT * FROM report_trial($1::timestamptz, 'corrected', NULL)
                                      EXCEPT SELECT subscription_id, provider, trial_at, trial_product, trial_country,
                                             converted_at, failed_at, ended_at, off_at, on_at
                                      FROM report_stored_trial WHERE basis = 'corrected') b)
        """

    @Test func aNightRecomputesOnlyTheTouchedTrialsAndReadsTheOthersFromTheStore() throws {
        let harness = try ReportingHarness("trials", seed: 51, subscriptions: 300, months: 6)
        let sql = try harness.sqlFolder("sql")
        let database = harness.database
        func scalar(_ query: String) throws -> Int {
            let parameters: [any PostgresEncodable] = query.contains("$1") ? [harness.asOf] : []
            return Int(try database.query(query, parameters).textRows().first?.first.flatMap { $0 } ?? "") ?? -1
        }
        func run(_ name: String, full: Bool = false) throws -> [String: Int] {
            let (code, summary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder(name).path] + (full ? ["--full"] : []))
            #expect(code == .succeeded, "\(summary)")
            return summary["counts"] as? [String: Int] ?? [:]
        }
        func trialFile(_ name: String) throws -> [UInt8]? { try ReportingHarness.files(harness.folder(name))["trial_conversion.csv"] }

        // The first run, --full, has its second session compute every trial, and stores them.
        _ = try run("first", full: true)
        let trials = try scalar("SELECT count(*) FROM report_trial($1::timestamptz, 'corrected', NULL)")
        #expect(trials > 5, "the world has trials")
        #expect(try scalar("SELECT count(*) FROM report_stored_trial WHERE basis = 'corrected'") == trials)
        #expect(try scalar(Self.storeDifference) == 0)

        // A billing failure learned late, an hour before a trial's conversion: that trial now converted after a retry.
        let changed = try database.execute("""
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, raw_payload)
            SELECT t.subscription_id, s.provider, 'ENTERED_GRACE_PERIOD', 'late-grace:' || t.subscription_id,
                   t.converted_at - interval '1 hour', '{}'::jsonb
            FROM report_trial($1::timestamptz, 'corrected', NULL) t JOIN subscription s ON s.id = t.subscription_id
            WHERE t.converted_at IS NOT NULL AND (t.failed_at IS NULL OR t.failed_at > t.converted_at)
              AND t.converted_at - interval '1 hour' > t.trial_at
            ORDER BY t.trial_at, t.subscription_id LIMIT 1
            """, [harness.asOf])
        #expect(changed == 1, "a converted trial to change")
        let night = try run("night")
        #expect(night["spans_recomputed"] == 1, "\(night)")
        // Stored as recomputed: the store holds every trial as computed now, the changed one included.
        #expect(try scalar(Self.storeDifference) == 0)
        _ = try run("night-full", full: true)
        #expect(try trialFile("night") == trialFile("night-full"), "the night's trial_conversion is the full run's")
        #expect(try trialFile("night-full") != trialFile("first"), "the late failure moved trial_conversion")

        // The night reads the stored trials: one altered by hand (a conversion forgotten) shows in the next night.
        let altered = try database.execute("""
            UPDATE report_stored_trial SET converted_at = NULL
            WHERE basis = 'corrected' AND subscription_id = (SELECT subscription_id FROM report_stored_trial
                                                             WHERE basis = 'corrected' AND converted_at IS NOT NULL
                                                             ORDER BY subscription_id LIMIT 1)
            """)
        #expect(altered == 1)
        let reused = try run("reused")
        #expect(reused["spans_recomputed"] == 0, "\(reused)")
        #expect(try trialFile("reused") != trialFile("night-full"), "the night read the stored trial")
    }
}
