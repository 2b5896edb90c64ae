import Foundation
import JobKit
import Postgres
@testable import ReportImport
import StoreExports
import Testing

/// `import-exports` stages Apple's Subscription and Subscription Event reports (both accepted 1_3 layouts): row counts,
/// micros and event counts equal to the fixtures', files no longer listed as unknown, the dry run predicting the same,
/// and the integrity rules of the other kinds (unchanged rerun, correction replaces, shrinking correction refused).
@Suite(.serialized) struct AppleSubscriptionImportTests {
    static let files = ["good/Subscription_85000000_20251103.txt", "good/Subscription_Event_85000000_20251103.txt",
                        "subscription/Subscription_85000000_20260315_V1_3.txt",
                        "subscription/Subscription_Event_85000000_20260315_V1_3.txt"]

    @Test func bothLayoutsOfBothReportsImportWithTheFixturesCountsAndMicros() throws {
        let harness = try ImportHarness("apple_subscription")
        for file in Self.files { try harness.add(file) }
        let (dryCode, dry, dryLine) = try harness.run(["--dry-run"])
        #expect(dryCode == .succeeded, "\(dryLine)")
        let (code, counts, line) = try harness.run()
        #expect(code == .succeeded, "\(line)")
        #expect(counts["files_imported"] == 4 && (counts["files_ignored"] ?? 0) == 0 && counts["files_rejected"] == nil, "\(line)")
        #expect(!line.contains("not imported"), "\(line)")
        #expect(counts["apple_subscription_imported"] == 2 && counts["apple_subscription_event_imported"] == 2, "\(line)")
        #expect(counts["apple_subscription_rows"] == 7 && counts["apple_subscription_event_rows"] == 11, "\(line)")
        // The dry run predicted exactly what the import did.
        for key in ["files_imported", "apple_subscription_imported", "apple_subscription_event_imported",
                    "apple_subscription_rows", "apple_subscription_event_rows", "rows_loaded"] {
            #expect(dry[key] == counts[key], "\(key): dry \(String(describing: dry[key])), real \(String(describing: counts[key]))")
        }

        #expect(try harness.scalar("SELECT count(*) AS n FROM apple_subscription_row") == 7)
        #expect(try harness.scalar("SELECT count(*) AS n FROM apple_subscription_event_row") == 11)
        #expect(try harness.scalar("""
            SELECT count(*) AS n FROM report_file WHERE kind = 'appleSubscription' AND period = '2026-03-15' AND vendor = '85000000'
              AND report_key = 'Subscription_85000000_20260315_V1_3' AND row_count = 3
            """) == 1)
        #expect(try harness.scalar("""
            SELECT count(*) AS n FROM report_file WHERE kind = 'appleSubscriptionEvent' AND period = '2025-11-03' AND row_count = 6
            """) == 1)
        // Micros per currency equal the fixtures' sums (USD: 9.99 + 59.99 twice; proceeds 6.99 + 50.99 twice).
        #expect(try harness.scalar("""
            SELECT sum(customer_price_micros)::bigint AS n FROM apple_subscription_row WHERE customer_currency = 'USD'
            """) == 139_960_000)
        #expect(try harness.scalar("""
            SELECT sum(developer_proceeds_micros)::bigint AS n FROM apple_subscription_row WHERE proceeds_currency = 'USD'
            """) == 115_960_000)
        #expect(try harness.scalar("""
            SELECT sum(developer_proceeds_micros)::bigint AS n FROM apple_subscription_row WHERE proceeds_currency = 'GBP'
            """) == 700_000)
        #expect(try harness.scalar("""
            SELECT sum(active_free_trial_introductory_offer)::bigint AS n FROM apple_subscription_row WHERE report_date = '2025-11-03'
            """) == 17)
        #expect(try harness.scalar("SELECT count(*) AS n FROM apple_subscription_row WHERE subscribers IS NULL") == 5)
        #expect(try harness.scalar("SELECT count(*) AS n FROM apple_subscription_row WHERE free_trial_offer_code IS NULL") == 4)
        // Event counts by day and name: what the trial-conversion cross-check (issue 30) reads.
        #expect(try harness.scalar("SELECT sum(quantity)::bigint AS n FROM apple_subscription_event_row WHERE event_date = '2025-11-03'")
                == 16)
        #expect(try harness.scalar("SELECT sum(quantity)::bigint AS n FROM apple_subscription_event_row WHERE event_date = '2026-03-15'")
                == 17)
        #expect(try harness.scalar("""
            SELECT sum(quantity)::bigint AS n FROM apple_subscription_event_row
            WHERE event = 'Paid Subscription from Introductory Offer' AND subscription_apple_id = '1500000001'
            """) == 4)
        #expect(try harness.scalar("""
            SELECT count(*) AS n FROM apple_subscription_event_row
            WHERE cancellation_reason = 'Canceled' AND days_before_canceling = 75 AND consecutive_paid_periods = 3
              AND original_start_date = '2025-08-03'
            """) == 1)

        // Again: nothing changes.
        let before = try harness.digest()
        let (againCode, again, _) = try harness.run()
        #expect(againCode == .succeeded && again["files_unchanged"] == 4 && again["files_imported"] == nil)
        #expect(try harness.digest() == before)
    }

    @Test func aCorrectionReplacesAndAShrinkingOneIsRefused() throws {
        let harness = try ImportHarness("apple_subscription_correction")
        let name = "Subscription_Event_85000000_20251103.txt"
        try harness.add("good/" + name)
        #expect(try harness.run().0 == .succeeded)
        let path = harness.folder.appendingPathComponent(name)
        let original = try String(contentsOf: path, encoding: .utf8)
        // The same rows with one quantity corrected: a replacement, audited.
        try original.replacingOccurrences(of: "\t7\n", with: "\t8\n").write(to: path, atomically: true, encoding: .utf8)
        let (code, counts, line) = try harness.run()
        #expect(code == .succeeded && counts["apple_subscription_event_replaced"] == 1, "\(line)")
        #expect(try harness.scalar("SELECT sum(quantity)::bigint AS n FROM apple_subscription_event_row") == 17)
        #expect(try harness.scalar("SELECT count(*) AS n FROM audit_log WHERE action = 'replace_report_file'") == 1)
        // A truncated download (the first 3 of 6 rows) is refused and the staged rows stay.
        let lines = original.split(separator: "\n", omittingEmptySubsequences: false)
        try (lines.prefix(4).joined(separator: "\n") + "\n").write(to: path, atomically: true, encoding: .utf8)
        let (shrinkCode, shrink, shrinkLine) = try harness.run()
        #expect(shrinkCode == .failed && shrink["files_shrinking"] == 1, "\(shrinkLine)")
        #expect(try harness.scalar("SELECT count(*) AS n FROM apple_subscription_event_row") == 6)
    }

    @Test func aSubscriptionReportWhoseNameCarriesNoDayIsRefused() throws {
        let harness = try ImportHarness("apple_subscription_no_day")
        try harness.add("bad/ssn-no-day/Subscription_85000000.txt")
        let (code, counts, line) = try harness.run()
        #expect(code == .failed && counts["apple_subscription_rejected"] == 1, "\(line)")
        #expect(line.contains("Subscription_85000000.txt:1:1: the file name carries no report day"), "\(line)")
        #expect(try harness.scalar("SELECT count(*) AS n FROM report_file") == 0)
    }
}
