import Foundation
import JobKit
import Postgres
import RepairJobs
import Testing
import WorldGen

/// Issue 13's acceptance for the history after the nightly chain over a generated world: refunds complete, rows dated
/// by the store and learned no earlier than they happened, renewals in period order, and entitlements that agree with
/// their subscriptions.
@Suite(.serialized) struct HistoryAcceptanceTests {
    @Test func afterTheChainTheHistoryAndEntitlementsHold() throws {
        var options = WorldOptions(seed: 91, subscriptions: 1_200, months: 8, testShare: 0.04)
        options.faultShares = Dictionary(uniqueKeysWithValues: ProjectionFault.allCases.map { ($0, 0.03) })
        let harness = try RequeryHarness(name: "history_acceptance", options: options)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        for step in NightlyChainRun(harness: harness, asOf: options.asOf).run(runKey: "history") {
            #expect(step.code == .succeeded, "\(step.name): \(step.summary)")
            #expect(!step.summary.contains("\"failed\""), "\(step.name) had failures: \(step.summary)")
        }
        func count(_ sql: String) throws -> Int { try RepairCheck.int(db, sql, [options.asOf]) }

        #expect(try count("SELECT count(*)::int AS n FROM billing_transaction WHERE event_type = 'REFUNDED' AND $1::timestamptz IS NOT NULL") > 0)
        // Every refund names its charge and kind; its amount is known wherever the refunded charge is.
        #expect(try count("""
            SELECT count(*)::int AS n FROM billing_transaction WHERE event_type = 'REFUNDED'
              AND (refunded_transaction_key IS NULL OR refund_kind IS NULL) AND $1::timestamptz IS NOT NULL
            """) == 0)
        #expect(try count("""
            SELECT count(*)::int AS n FROM billing_transaction r WHERE r.event_type = 'REFUNDED' AND r.amount_micros IS NULL
              AND EXISTS (SELECT 1 FROM billing_transaction c WHERE c.transaction_key = r.refunded_transaction_key
                          AND c.amount_micros > 0) AND $1::timestamptz IS NOT NULL
            """) == 0)
        // Dated by the store, learned no earlier, never after the as-of.
        #expect(try count("SELECT count(*)::int AS n FROM billing_transaction WHERE effective_at > recorded_at OR effective_at > $1") == 0)
        #expect(try count("""
            SELECT count(*)::int AS n FROM billing_transaction r WHERE r.event_type = 'RENEWED' AND $1::timestamptz IS NOT NULL
              AND r.effective_at < (SELECT min(p.effective_at) FROM billing_transaction p
                                    WHERE p.subscription_id = r.subscription_id AND p.event_type = 'PURCHASED')
            """) == 0)
        // Every charge says what it bought; a weekly period is seven days.
        #expect(try count("""
            SELECT count(*)::int AS n FROM billing_transaction WHERE amount_micros IS NOT NULL AND $1::timestamptz IS NOT NULL
              AND event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED')
              AND (plan_id IS NULL OR billing_period IS NULL OR period_start_at IS NULL)
            """) == 0)
        let weekly = try count("SELECT count(*)::int AS n FROM billing_transaction WHERE billing_period = 'P1W' AND event_type = 'RENEWED' AND $1::timestamptz IS NOT NULL")
        #expect(weekly > 0)
        #expect(try count("""
            SELECT count(*)::int AS n FROM billing_transaction WHERE billing_period = 'P1W' AND event_type = 'RENEWED'
              AND period_end_at - period_start_at <> interval '7 days' AND $1::timestamptz IS NOT NULL
            """) == 0)
        // Entitlements agree with their subscriptions.
        #expect(try count("""
            SELECT count(*)::int AS n FROM entitlement e JOIN subscription s ON s.id = e.source_subscription_id
            WHERE e.is_active AND s.status IN ('REVOKED', 'EXPIRED', 'ON_HOLD') AND $1::timestamptz IS NOT NULL
            """) == 0)
        #expect(try count("""
            SELECT count(*)::int AS n FROM subscription s
            WHERE s.status IN ('ACTIVE', 'IN_GRACE_PERIOD') AND s.billing_account_id IS NOT NULL AND $1::timestamptz IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM entitlement e WHERE e.billing_account_id = s.billing_account_id AND e.plan_id = s.plan_id
                              AND e.is_active AND e.valid_until >= s.current_period_end_at)
            """) == 0)
        // Nothing ended long ago is still live: the derived expiry caught it, once.
        #expect(try count("""
            SELECT count(*)::int AS n FROM subscription WHERE status = 'CANCELED' AND current_period_end_at < $1::timestamptz - interval '1 day'
            """) == 0)
        let derived = try count("SELECT count(*)::int AS n FROM billing_transaction WHERE is_derived AND $1::timestamptz IS NOT NULL")
        let again = try ExpireLapsed.expire(db, asOf: options.asOf)
        #expect(again == ExpireLapsed.Result(expired: 0, rows: 0, entitlements: 0))
        #expect(try count("SELECT count(*)::int AS n FROM billing_transaction WHERE is_derived AND $1::timestamptz IS NOT NULL") == derived)
    }
}
