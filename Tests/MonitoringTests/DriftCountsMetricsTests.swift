import Foundation
import JobKit
import Monitoring
import Postgres
import TestSupport
import Testing

/// Each drift-counts metric on the real PostgreSQL, from rows inserted by hand: what counts, what does not
/// (superseded drift, old repairs, young PENDING purchases, far deadlines, processed events, resolved letters).
@Suite(.serialized) struct DriftCountsMetricsTests {
    static let databaseName = "test_monitoring_metrics"
    static let seeded: Result<PostgresConfiguration, any Error> = Result {
        let (configuration, db) = try TestDatabase.migrated(databaseName)
        defer { db.close() }
        try seed(MonitoringFixture(db))
        return configuration
    }

    // swiftlint:disable:next function_body_length
    static func seed(_ f: MonitoringFixture) throws {
        // Drift: S1 still disagrees (two rows, one subscription); S2's drift was superseded by a later verification;
        // S3 was repaired an hour ago (counted) and 30 hours ago (not).
        let s1 = try f.subscription("APPLE", "ACTIVE", lastVerifiedAt: MonitoringFixture.ago(hours: 2), entitled: true)
        try f.drift(s1, "status", detectedAt: MonitoringFixture.ago(hours: 2), repaired: false)
        try f.drift(s1, "status", detectedAt: MonitoringFixture.ago(hours: 2), repaired: false)
        let s2 = try f.subscription("GOOGLE", "ACTIVE", lastVerifiedAt: MonitoringFixture.ago(hours: 24), entitled: true)
        try f.drift(s2, "expiry", detectedAt: MonitoringFixture.ago(hours: 72), repaired: false)
        let s3 = try f.subscription("GOOGLE", "ACTIVE", entitled: true)
        try f.drift(s3, "price", detectedAt: MonitoringFixture.ago(hours: 1), repaired: true)
        try f.drift(s3, "price", detectedAt: MonitoringFixture.ago(hours: 30), repaired: true)
        // Entitlement: a REVOKED one still entitled, an ON_HOLD one not, an ACTIVE one without entitlement,
        // an EXPIRED one still entitled.
        try f.subscription("APPLE", "REVOKED", entitled: true)
        try f.subscription("GOOGLE", "ON_HOLD", entitled: false)
        try f.subscription("GOOGLE", "ACTIVE")
        try f.subscription("GOOGLE", "EXPIRED", entitled: true)
        // PENDING: 30 h old (stale), 2 h old (not yet).
        try f.subscription("APPLE", "PENDING", createdAt: MonitoringFixture.ago(hours: 30))
        try f.subscription("APPLE", "PENDING", createdAt: MonitoringFixture.ago(hours: 2))
        // Google acknowledgements: purchased 4 days ago (overdue; the row itself is new), token 2.5 days old without
        // history (due within 24 h), purchased 1 day ago (later), acknowledged long ago (not counted).
        let overdue = try f.subscription("GOOGLE", "CANCELED", createdAt: MonitoringFixture.asOf, acknowledgement: "PENDING")
        try f.token(overdue, "tok_over", createdAt: MonitoringFixture.asOf)
        try f.transaction(overdue, key: "GOOGLE:tok_over:GPA.1", effectiveAt: MonitoringFixture.ago(hours: 96))
        let soon = try f.subscription("GOOGLE", "CANCELED", acknowledgement: "PENDING")
        try f.token(soon, "tok_soon", createdAt: MonitoringFixture.ago(hours: 60))
        let later = try f.subscription("GOOGLE", "CANCELED", acknowledgement: "PENDING")
        try f.token(later, "tok_later", createdAt: MonitoringFixture.ago(hours: 200))
        try f.transaction(later, key: "GOOGLE:tok_later:GPA.2", effectiveAt: MonitoringFixture.ago(hours: 24))
        try f.subscription("GOOGLE", "CANCELED", createdAt: MonitoringFixture.ago(hours: 500), acknowledgement: "ACKNOWLEDGED")
        // Paid (a period is known), except one abandoned before payment: no acknowledgement is due for it.
        try f.db.execute("UPDATE subscription SET current_period_start_at = $1, current_period_end_at = $2 WHERE id = ANY($3::uuid[])",
                         [MonitoringFixture.ago(hours: 96), MonitoringFixture.asOf, "{\(overdue),\(soon),\(later)}"])
        try f.subscription("GOOGLE", "EXPIRED", createdAt: MonitoringFixture.ago(hours: 90), acknowledgement: "PENDING")
        // Webhooks: unprocessed 30 min old, failed 2 days old, failed 3 h old, one processed.
        try f.webhook("APPLE", receivedAt: MonitoringFixture.ago(hours: 0.5), processed: false)
        try f.webhook("GOOGLE", receivedAt: MonitoringFixture.ago(hours: 48), processed: false, error: "boom")
        try f.webhook("GOOGLE", receivedAt: MonitoringFixture.ago(hours: 3), processed: false, error: "boom")
        try f.webhook("APPLE", receivedAt: MonitoringFixture.ago(hours: 3), processed: true)
        // Dead letters: one open, one resolved.
        try f.db.execute("""
            INSERT INTO dead_letter (source, source_id, reason, attempts, created_at, resolved_at) VALUES
              ('inbound_webhook_event', 'a', 'r', 5, $1, NULL), ('inbound_webhook_event', 'b', 'r', 5, $1, $1)
            """, [MonitoringFixture.ago(hours: 5)])
        // Store queries (Google, last 24 h): 6 answered (4 ok, 1 not_found, 1 gone), 2 rate limited (one by outcome,
        // one by status), 2 errors; one attempt 25 h ago is outside the window.
        for outcome in ["ok", "ok", "ok", "ok", "not_found", "gone"] {
            try f.storeQuery("GOOGLE", outcome: outcome, status: 200, at: MonitoringFixture.ago(hours: 1))
        }
        try f.storeQuery("GOOGLE", outcome: "rate_limited", status: 429, at: MonitoringFixture.ago(hours: 2))
        try f.storeQuery("GOOGLE", outcome: "retryable", status: 429, at: MonitoringFixture.ago(hours: 2))
        try f.storeQuery("GOOGLE", outcome: "retryable", status: 503, at: MonitoringFixture.ago(hours: 3))
        try f.storeQuery("GOOGLE", outcome: "unauthorized", status: 401, at: MonitoringFixture.ago(hours: 3))
        try f.storeQuery("GOOGLE", outcome: "retryable", status: 503, at: MonitoringFixture.ago(hours: 25))
        // Jobs: sweep-voided succeeded 2 h ago then failed 1 h ago; nightly breached a threshold 3 h ago; ack-rescue
        // never completed; a run after the as-of instant is ignored.
        try f.jobRun("sweep-voided", status: "succeeded", asOf: MonitoringFixture.ago(hours: 2))
        try f.jobRun("sweep-voided", status: "failed", asOf: MonitoringFixture.ago(hours: 1))
        try f.jobRun("nightly", status: "threshold_breached", asOf: MonitoringFixture.ago(hours: 3))
        try f.jobRun("ack-rescue", status: "failed", asOf: MonitoringFixture.ago(hours: 1))
        try f.jobRun("ack-rescue", status: "succeeded", asOf: MonitoringFixture.asOf.addingTimeInterval(60))
        // What the newest completed run of each repair job repaired: older, failed, dry and future runs do not count.
        try f.jobRun("requery-at-risk", status: "succeeded", asOf: MonitoringFixture.ago(hours: 30), counts: #"{"repaired": 9}"#)
        try f.jobRun("requery-at-risk", status: "threshold_breached", asOf: MonitoringFixture.ago(hours: 5), counts: #"{"repaired": 4, "queried": 70}"#)
        try f.jobRun("requery-at-risk", status: "failed", asOf: MonitoringFixture.ago(hours: 4), counts: #"{"repaired": 2}"#)
        try f.jobRun("requery-at-risk", status: "succeeded", asOf: MonitoringFixture.ago(hours: 3), counts: #"{"repaired": 5}"#, dryRun: true)
        try f.jobRun("recover-notifications", status: "succeeded", asOf: MonitoringFixture.ago(hours: 2), counts: #"{"missing": 3, "already_stored": 40}"#)
        try f.jobRun("recover-notifications", status: "succeeded", asOf: MonitoringFixture.asOf.addingTimeInterval(60), counts: #"{"missing": 8}"#)
        // Runs that did not end normally: two abandoned in the week (one older), one still running for three hours.
        try f.jobRun("replay-events", status: "abandoned", asOf: MonitoringFixture.ago(hours: 5))
        try f.jobRun("replay-events", status: "abandoned", asOf: MonitoringFixture.ago(hours: 30))
        try f.jobRun("replay-events", status: "abandoned", asOf: MonitoringFixture.ago(hours: 24 * 8))
        try f.db.execute("""
            INSERT INTO job_run (job_name, status, started_at, as_of, host, pid, backend_pid)
            VALUES ('retention', 'running', clock_timestamp() - interval '3 hours', $1, 'test', 1, 0)
            """, [MonitoringFixture.asOf])
    }

    private func metrics() throws -> PrometheusExposition {
        let db = try PostgresConnection(configuration: try Self.seeded.get())
        defer { db.close() }
        let families = try DriftCounts.collect(CollectorInput(database: db, asOf: MonitoringFixture.asOf, pendingHours: 24))
        return try PrometheusExposition(PrometheusText.render(families))
    }

    @Test func driftCountsUnrepairedUnsupersededDriftAndRecentRepairs() throws {
        let m = try metrics()
        #expect(m.value("iap_drift_subscriptions", ["provider": "apple", "kind": "status"]) == 1)
        #expect(m.value("iap_drift_subscriptions", ["provider": "google", "kind": "expiry"]) == 0, "superseded by a later verification")
        #expect(m.families["iap_drift_subscriptions"]?.samples.reduce(0) { $0 + $1.value } == 1)
        #expect(m.value("iap_drift_repaired_subscriptions", ["provider": "google", "kind": "price"]) == 1)
        #expect(m.families["iap_drift_repaired_subscriptions"]?.samples.reduce(0) { $0 + $1.value } == 1)
        #expect(m.families["iap_drift_subscriptions"]?.samples.count == 14, "every provider × kind series is present")
    }

    @Test func entitlementLeakageBothWays() throws {
        let m = try metrics()
        #expect(m.value("iap_entitlement_leaked_subscriptions", ["provider": "apple", "status": "REVOKED"]) == 1)
        #expect(m.value("iap_entitlement_leaked_subscriptions", ["provider": "google", "status": "EXPIRED"]) == 1)
        #expect(m.value("iap_entitlement_leaked_subscriptions", ["provider": "google", "status": "ON_HOLD"]) == 0)
        #expect(m.value("iap_entitlement_missing_subscriptions", ["provider": "google"]) == 1)
        #expect(m.value("iap_entitlement_missing_subscriptions", ["provider": "apple"]) == 0)
    }

    @Test func stalePendingOlderThanTheWindow() throws {
        let m = try metrics()
        #expect(m.value("iap_pending_stale_subscriptions", ["provider": "apple"]) == 1)
        #expect(m.value("iap_pending_stale_subscriptions", ["provider": "google"]) == 0)
    }

    @Test func googleAcknowledgementDeadlines() throws {
        let m = try metrics()
        #expect(m.value("iap_google_unacknowledged_subscriptions", ["deadline": "overdue"]) == 1)
        #expect(m.value("iap_google_unacknowledged_subscriptions", ["deadline": "within_24h"]) == 1)
        #expect(m.value("iap_google_unacknowledged_subscriptions", ["deadline": "later"]) == 1)
    }

    @Test func webhooksByStateAndAgeAndDeadLetters() throws {
        let m = try metrics()
        #expect(m.value("iap_inbound_webhook_events_pending", ["provider": "apple", "state": "unprocessed", "age": "under_1h"]) == 1)
        #expect(m.value("iap_inbound_webhook_events_pending", ["provider": "google", "state": "failed", "age": "over_24h"]) == 1)
        #expect(m.value("iap_inbound_webhook_events_pending", ["provider": "google", "state": "failed", "age": "1h_to_6h"]) == 1)
        #expect(m.families["iap_inbound_webhook_events_pending"]?.samples.reduce(0) { $0 + $1.value } == 3)
        #expect(m.value("iap_dead_letters", ["source": "inbound_webhook_event"]) == 1)
    }

    @Test func storeQueryErrorAndRateLimitRatios() throws {
        let m = try metrics()
        #expect(m.value("iap_store_query_attempts_24h", ["provider": "google", "result": "answered"]) == 6)
        #expect(m.value("iap_store_query_attempts_24h", ["provider": "google", "result": "rate_limited"]) == 2)
        #expect(m.value("iap_store_query_attempts_24h", ["provider": "google", "result": "error"]) == 2)
        #expect(m.value("iap_store_query_error_ratio_24h", ["provider": "google"]) == 0.4)
        #expect(m.value("iap_store_query_rate_limited_ratio_24h", ["provider": "google"]) == 0.2)
        #expect(m.value("iap_store_query_error_ratio_24h", ["provider": "apple"]) == 0, "no attempts: 0")
    }

    @Test func ageOfEachJobsLastCompletedRun() throws {
        let m = try metrics()
        #expect(m.value("iap_job_last_success_age_seconds", ["job": "sweep-voided"]) == 7_200)
        #expect(m.value("iap_job_last_success_age_seconds", ["job": "nightly"]) == 10_800)
        #expect(m.value("iap_job_last_success_age_seconds", ["job": "ack-rescue"]) == .infinity)
    }

    @Test func abandonedAndLongRunningRuns() throws {
        let m = try metrics()
        #expect(m.value("iap_job_runs_abandoned_7d", ["job": "replay-events"]) == 2, "the one eight days old is outside the week")
        let running = try #require(m.value("iap_job_running_seconds", ["job": "retention"]))
        // Seeded once for the suite, three hours before the seeding's clock; read whenever this test runs.
        #expect(running >= 10_800 && running < 10_800 + 3_600, "\(running)")
        #expect(m.value("iap_job_running_seconds", ["job": "nightly"]) == nil, "no running nightly")
    }

    @Test func whatTheNewestCompletedRunOfEachRepairJobRepaired() throws {
        let m = try metrics()
        #expect(m.value("iap_chain_repairs", ["job": "requery-at-risk", "repair": "subscription_repaired"]) == 4)
        #expect(m.value("iap_chain_repairs", ["job": "recover-notifications", "repair": "notification_recovered"]) == 3)
        #expect(m.value("iap_chain_repairs", ["job": "sweep-voided", "repair": "void_applied"]) == 0, "a run without the count: 0")
        #expect(m.value("iap_chain_repairs", ["job": "ack-rescue", "repair": "acknowledged"]) == 0, "the only completed run is after as-of")
        #expect(m.families["iap_chain_repairs"]?.samples.count == 6, "every series written, zeros included")
    }

    @Test func theExpositionFollowsTheNamingConventions() throws {
        let m = try metrics()
        #expect(m.conventionViolations() == [])
        #expect(m.order.count == 16)
    }
}
