import Foundation
import JobKit
import Postgres

/// The `expire-lapsed` job (nightly chain, after the repair jobs): a subscription whose paid period ended without
/// renewal is expired by time, even when no store ever says so (a lost EXPIRED notification, a Google token past the
/// 60-day query window).
///
/// Lapsed: CANCELED (auto-renew off) with its period ended more than `canceledGrace` before the as-of; ACTIVE,
/// TRIALING, IN_GRACE_PERIOD or ON_HOLD with its period ended more than `retryWindow` before it (longer than any
/// store's grace period, account hold or billing retry, so a renewal the repair jobs could still find is never
/// pre-empted). Each gets one EXPIRED history row marked `is_derived`, recorded when written (the database clock), its status EXPIRED, its
/// entitlements off and its open entitlement intervals ended at the period end. The row is dated the instant the paid
/// period ended, unless it ends a billing failure (a grace or hold row at or after the latest charge): then it is dated
/// when the store gives up retrying, `failureEnd`, so it never falls inside the failure it ends. Idempotent: the row's
/// key is the period's charge key plus `:EXPIRED` (the store's own EXPIRED row has the same key), and an expired
/// subscription is not selected again.
///
/// Unknown is not lapsed: a subscription whose latest re-query failed (its `requery_work_item` is `failed`) is left as it
/// is, because the store was asked and did not answer, so a renewal may be there; the next night asks again. Only
/// once the store can no longer be asked (a Google token whose period ended more than Google's 60-day window ago) is
/// it expired by time regardless. Likewise a subscription with a stored notification that replay-events has still to
/// project (`processed_at` NULL or a `processing_error`, not dead-lettered) is left, whatever its token's age: that
/// notification may be the renewal (a Google token whose stored period ended long ago can have renewed since, and
/// is then still queryable), and a derived row is never retracted. replay-events retries it each night and
/// dead-letters it after `--max-attempts` failures, or at once when Google no longer knows the token (410), so the
/// wait is bounded (issue 28: a rerun after store faults kept a derived expiry the clean run never wrote).
public enum ExpireLapsed {
    /// Days after the period end before a CANCELED subscription is expired by time.
    public static let canceledGrace = 1
    /// Days after the period end before an auto-renewing subscription is expired by time.
    public static let retryWindow = 60

    /// The job definition.
    public static func definition() -> JobDefinition {
        JobDefinition(name: "expire-lapsed",
                      summary: "expire subscriptions whose paid period ended without renewal (derived EXPIRED rows)") { context in
            let lapsed = try select(context.database, asOf: context.asOf)
            context.setCount("selected", lapsed)
            guard lapsed > 0, !context.dryRun else { return }
            let result = try expire(context.database, asOf: context.asOf)
            context.setCount("expired", result.expired)
            context.setCount("derived_rows", result.rows)
            context.setCount("entitlements_off", result.entitlements)
        }
    }

    /// Days after the period end a Google token can still be queried (`purchases.subscriptionsv2.get`).
    public static let googleQueryWindow = 60

    /// Days after the paid period's end that Apple keeps retrying a failed renewal (billing retry, grace included).
    public static let appleBillingRetryDays = 60
    /// Days after the paid period's end that Google keeps a failed renewal on grace and account hold (the default).
    public static let googleAccountHoldDays = 30

    /// The instant a billing failure ended when no store said so: the end of the store's retry after the paid period's
    /// end (`appleBillingRetryDays`, `googleAccountHoldDays`), never after the as-of `$1`, and never before the
    /// failure's latest grace or hold row nor the end of its grace (a grace row's `expires_at`). Reads `l.provider`,
    /// `l.paid_end` and `l.failure_last_at` of the `lapsed` rows.
    static let failureEnd = """
        GREATEST(LEAST(l.paid_end + make_interval(days => CASE WHEN l.provider = 'APPLE' THEN \(appleBillingRetryDays)
                                                          ELSE \(googleAccountHoldDays) END), $1::timestamptz),
                 l.failure_last_at)
        """

    /// The lapsed subscriptions' condition; `$1` is the as-of.
    static let lapsedCondition = """
        ((s.status = 'CANCELED' AND s.current_period_end_at < $1::timestamptz - make_interval(days => \(canceledGrace)))
         OR (s.status IN ('ACTIVE', 'TRIALING', 'IN_GRACE_PERIOD', 'ON_HOLD')
             AND s.current_period_end_at < $1::timestamptz - make_interval(days => \(retryWindow))))
        AND NOT (COALESCE((SELECT w.state = 'failed' FROM requery_work_item w WHERE w.subscription_id = s.id
                           ORDER BY w.id DESC LIMIT 1), false)
                 AND NOT (s.provider = 'GOOGLE'
                          AND s.current_period_end_at < $1::timestamptz - make_interval(days => \(googleQueryWindow))))
        AND s.id NOT IN (\(awaitingReplay))
        """

    /// The subscriptions with a stored notification replay-events has still to project (unprocessed or failed, not
    /// dead-lettered): Google by any purchase token of the subscription (the business key starts with it), Apple by the
    /// original transaction. Uncorrelated, so it is read once per statement.
    public static let awaitingReplay = """
        WITH waiting AS (SELECT w.provider, w.provider_business_key, w.payload FROM inbound_webhook_event w
                         WHERE \(ReplayEvents.awaitingReplay("w")))
        SELECT g.subscription_id FROM waiting w
        JOIN google_purchase_token g ON g.purchase_token = split_part(w.provider_business_key, ':', 1)
        WHERE w.provider = 'GOOGLE'
        UNION ALL
        SELECT a.subscription_id FROM waiting w
        JOIN apple_subscription_identity a ON a.original_transaction_id = w.payload -> 'transactionInfo' ->> 'originalTransactionId'
        WHERE w.provider = 'APPLE'
        """

    /// How many subscriptions are lapsed as of `asOf`.
    public static func select(_ database: PostgresConnection, asOf: Date) throws -> Int {
        let row = try database.query("SELECT count(*)::int8 AS n FROM subscription s WHERE \(lapsedCondition)", [asOf]).first
        return Int(try row?.decode(Int64.self, "n") ?? 0)
    }

    /// What one run wrote.
    public struct Result: Sendable, Equatable {
        public let expired: Int
        public let rows: Int
        public let entitlements: Int

        /// Creates a result.
        public init(expired: Int, rows: Int, entitlements: Int) {
            self.expired = expired
            self.rows = rows
            self.entitlements = entitlements
        }
    }

    /// Expires every lapsed subscription in one transaction (set-based).
    public static func expire(_ database: PostgresConnection, asOf: Date) throws -> Result {
        try database.retryingTransaction { db in
            let rows = try db.execute("""
                WITH lapsed AS (
                    SELECT s.id, s.provider, s.status, s.is_test_purchase, s.current_period_end_at, c.transaction_key, c.order_id,
                           COALESCE(c.period_end_at, s.current_period_end_at) AS paid_end, f.last_at AS failure_last_at
                    FROM subscription s
                    LEFT JOIN LATERAL (
                        SELECT b.transaction_key, b.order_id, b.effective_at, b.period_end_at FROM billing_transaction b
                        WHERE b.subscription_id = s.id AND b.event_type IN ('PURCHASED', 'RENEWED', 'RECOVERED', 'RESTARTED', 'PRODUCT_CHANGED')
                          AND b.effective_at <= s.current_period_end_at
                        ORDER BY b.effective_at DESC, b.transaction_key DESC LIMIT 1) c ON true
                    -- The billing failure the expiry ends: grace and hold rows at or after the latest charge.
                    LEFT JOIN LATERAL (
                        SELECT max(GREATEST(b.effective_at, CASE WHEN b.event_type = 'ENTERED_GRACE_PERIOD' THEN b.expires_at END)) AS last_at
                        FROM billing_transaction b
                        WHERE b.subscription_id = s.id AND b.event_type IN ('ENTERED_GRACE_PERIOD', 'ENTERED_ON_HOLD')
                          AND b.effective_at >= COALESCE(c.effective_at, '-infinity'::timestamptz)) f ON true
                    WHERE (\(lapsedCondition))
                      AND NOT EXISTS (SELECT 1 FROM billing_transaction e WHERE e.subscription_id = s.id AND e.event_type = 'EXPIRED'
                                        AND e.effective_at >= s.current_period_end_at)
                ), dated AS (
                    -- A cancelled subscription's store stopped retrying at the period end; never before the failure's rows.
                    SELECT l.*, CASE WHEN l.failure_last_at IS NULL THEN l.current_period_end_at
                                     WHEN l.status = 'CANCELED' THEN GREATEST(l.current_period_end_at, l.failure_last_at)
                                     ELSE \(failureEnd) END AS expired_at
                    FROM lapsed l
                )
                INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, expires_at,
                  order_id, is_test, reason, raw_payload, is_derived)
                SELECT d.id, d.provider, 'EXPIRED', COALESCE(d.transaction_key, 'DERIVED:' || d.id::text || ':'
                         || to_char(d.current_period_end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')) || ':EXPIRED',
                       d.expired_at, d.current_period_end_at, d.order_id, d.is_test_purchase,
                       CASE WHEN d.status = 'CANCELED' THEN 'VOLUNTARY' ELSE 'BILLING_FAILURE' END, '{}'::jsonb, true
                FROM dated d
                ON CONFLICT (transaction_key) DO NOTHING
                """, [asOf])
            let entitlements = try db.execute("""
                UPDATE entitlement e SET is_active = false, updated_at = now()
                FROM subscription s
                WHERE e.source_subscription_id = s.id AND e.is_active AND (\(lapsedCondition))
                """, [asOf])
            try db.execute("""
                UPDATE entitlement_interval i SET ended_at = GREATEST(i.valid_from, LEAST(COALESCE(i.valid_until, s.current_period_end_at),
                                                                                   s.current_period_end_at)),
                       updated_at = $1
                FROM subscription s
                WHERE i.subscription_id = s.id AND i.ended_at IS NULL AND (\(lapsedCondition))
                """, [asOf])
            let expired = try db.execute("""
                UPDATE subscription s SET status = 'EXPIRED', auto_renew = false, updated_at = now()
                WHERE \(lapsedCondition)
                """, [asOf])
            return Result(expired: expired, rows: rows, entitlements: entitlements)
        }
    }
}
