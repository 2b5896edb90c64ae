import Foundation
import Postgres
import StoreTruth

/// Recall over a world's manifest after the chain: which injected faults are repaired, and which could not be by
/// design (each reason is a documented limit of the stores' APIs, counted rather than hidden). Used by the tests and
/// by `world --recall` in the demo.
public enum ManifestRecall {
    /// Faults the chain can reach, and the count of those it cannot, by reason.
    public struct Reachable: Sendable {
        public var faults: [InjectedFault] = []
        public var excluded: [String: Int] = [:]
        /// The excluded faults, by reason.
        public var excludedFaults: [String: [InjectedFault]] = [:]
    }

    /// Splits the manifest into reachable faults and documented exclusions:
    /// - `google_purchase_never_received`: a Google purchase whose every notification was lost leaves no row and no
    ///   token to query (only the app can re-send it);
    /// - `google_expired_over_60_days`: the Play API does not answer for tokens long expired, so requery skips them;
    /// - `void_older_than_30_days`: voidedpurchases.list reaches back 30 days;
    /// - `apple_history_window`: the notification is older than the 170 days the chain's history window covers, or,
    ///   for a sandbox purchase, than the 30 days Apple's sandbox history keeps.
    public static func reachable(_ world: GeneratedWorld, database: PostgresConnection, asOf: Date) throws -> Reachable {
        try reachable(world.manifest.faults, truth: world.truth, database: database, asOf: asOf)
    }

    /// The same split for a world read back from its folder (`manifest.json` and the truth files).
    public static func reachable(_ faults: [InjectedFault], truth: StoreTruth, database: PostgresConnection, asOf: Date) throws -> Reachable {
        let present = Set(try database.query("SELECT id::text AS id FROM subscription").rows.map { try $0.decode(String.self, "id") })
        let expiredGoogle = Set(try database.query("""
            SELECT id::text AS id FROM subscription WHERE provider = 'GOOGLE' AND current_period_end_at < $1::timestamptz - interval '60 days'
            """, [asOf]).rows.map { try $0.decode(String.self, "id") })
        let asOfMs = Int64(asOf.timeIntervalSince1970 * 1_000)
        var notificationMs: [String: Int64] = [:]
        for notification in truth.apple.notifications {
            if let uuid = notification.payload["notificationUUID"]?.stringValue, let at = notification.payload["signedDate"]?.int64Value {
                let sandbox = notification.payload["data"]?["environment"]?.stringValue == "Sandbox"
                // Reported as the age relative to the window its environment keeps: sandbox notifications count as
                // older by the difference between the 170-day window and the sandbox's 30 days.
                notificationMs[uuid] = sandbox ? at - 140 * 86_400_000 : at
            }
        }
        var voidedMs: [String: Int64] = [:]
        for item in truth.google.voidedPurchases {
            guard let token = item["purchaseToken"]?.stringValue,
                  let at = item["voidedTimeMillis"]?.stringValue.flatMap({ Int64($0) }) ?? item["voidedTimeMillis"]?.int64Value else { continue }
            voidedMs[token] = max(voidedMs[token] ?? 0, at)
        }
        var result = Reachable()
        for fault in faults {
            let reason: String?
            if fault.provider == "GOOGLE" && !present.contains(fault.subscriptionId) {
                reason = "google_purchase_never_received"
            } else if expiredGoogle.contains(fault.subscriptionId) && fault.kind != .voidedPurchaseNotApplied {
                reason = "google_expired_over_60_days"
            } else if fault.kind == .voidedPurchaseNotApplied, (voidedMs[fault.storeIdentifier] ?? 0) < asOfMs - 30 * 86_400_000 {
                reason = "void_older_than_30_days"
            } else if fault.provider == "APPLE", let event = fault.eventId, let at = notificationMs[event], at < asOfMs - 170 * 86_400_000,
                      !present.contains(fault.subscriptionId) || fault.kind == .appleNotificationNotStored {
                reason = "apple_history_window"
            } else {
                reason = nil
            }
            if let reason {
                result.excluded[reason, default: 0] += 1
                result.excludedFaults[reason, default: []].append(fault)
            } else {
                result.faults.append(fault)
            }
        }
        return result
    }

    /// The faults not repaired, each described; empty means recall 100 %.
    public static func unrepaired(_ faults: [InjectedFault], database: PostgresConnection) throws -> [String] {
        try faults.compactMap { fault in
            try isRepaired(fault, database) ? nil
                : "\(fault.kind.rawValue) \(fault.provider) \(fault.subscriptionId) \(fault.field): \(fault.databaseValue ?? "nil") → \(fault.correctValue ?? "nil")"
        }
    }

    private static func isRepaired(_ fault: InjectedFault, _ db: PostgresConnection) throws -> Bool {
        switch fault.field {
        case "status", "acknowledgement_status", "current_recurring_price_micros":
            let value = try db.query("SELECT \(fault.field)::text AS v FROM subscription WHERE id = $1::uuid", [fault.subscriptionId])
                .first?.decodeIfPresent(String.self, "v")
            guard value == fault.correctValue else { return false }
            if fault.kind == .voidedPurchaseNotApplied || fault.kind == .refundNotReflected { return try entitlementOff(fault, db) }
            return true
        case "inbound_webhook_event", "inbound_webhook_event.processed_at":
            // By the store's event id (the provider's unique index), or by the row id the world gave it.
            let event = fault.eventId ?? ""
            return try count(db, """
                SELECT count(*)::int AS n FROM (
                  SELECT id FROM inbound_webhook_event WHERE provider = $1::billing_provider AND provider_event_id = $2
                  UNION SELECT id FROM inbound_webhook_event WHERE id = $3::uuid) e
                JOIN inbound_webhook_event w ON w.id = e.id
                WHERE w.processed_at IS NOT NULL AND w.processing_error IS NULL
                """, [fault.provider, event, UUID(uuidString: event)?.uuidString]) == 1
        case "notification":
            // The lost last notification: the subscription (found by its store identity: a lost first purchase is created
            // afresh, under a new id) must exist and have been verified against the store by this chain (a later
            // re-query finding no drift then shows it equals the store).
            return try count(db, """
                SELECT count(*)::int AS n FROM subscription s
                JOIN (SELECT $1::uuid AS id
                      UNION SELECT subscription_id FROM apple_subscription_identity WHERE original_transaction_id = $2
                      UNION SELECT subscription_id FROM google_purchase_token WHERE purchase_token = $2) k ON k.id = s.id
                WHERE s.last_verified_at IS NOT NULL
                """, [fault.subscriptionId, fault.storeIdentifier]) == 1
        default:
            if fault.kind == .voidedPurchaseNotApplied {
                let refunds = try count(db, """
                    SELECT count(*)::int AS n FROM billing_transaction
                    WHERE subscription_id = $1::uuid AND event_type IN ('REFUNDED', 'REVOKED') AND reason IS NOT NULL
                    """, [fault.subscriptionId])
                return try refunds >= 1 && entitlementOff(fault, db)
            }
            return false
        }
    }

    private static func count(_ db: PostgresConnection, _ sql: String, _ parameters: [any PostgresEncodable]) throws -> Int {
        try db.query(sql, parameters).first?.decode(Int.self, "n") ?? 0
    }

    private static func entitlementOff(_ fault: InjectedFault, _ db: PostgresConnection) throws -> Bool {
        try count(db, "SELECT count(*)::int AS n FROM entitlement WHERE source_subscription_id = $1::uuid AND is_active",
                            [fault.subscriptionId]) == 0
    }
}
