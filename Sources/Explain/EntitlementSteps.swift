import Foundation
import Postgres

/// `entitlement_interval` rows: a GRANTED entry at each interval's start (with the plan and its end), and an ENDED
/// entry where the grant stopped early (revocation, hold, expiry) at or before the as-of instant.
enum EntitlementSteps {
    static func read(_ id: String, asOf: Date, database: PostgresConnection) throws -> [TimelineEntry] {
        var entries: [TimelineEntry] = []
        for row in try database.query("""
            SELECT p.code AS plan, i.valid_from, i.valid_until, i.ended_at, i.recorded_at
            FROM entitlement_interval i JOIN plan p ON p.id = i.plan_id
            WHERE i.subscription_id = $1::uuid AND i.recorded_at <= $2
            ORDER BY i.valid_from, i.recorded_at
            """, [id, asOf]).rows {
            let plan = try row.decode(String.self, "plan")
            let recorded = try row.decode(Date.self, "recorded_at")
            let until = try row.decodeIfPresent(Date.self, "valid_until")
            entries.append(TimelineEntry(at: try row.decode(Date.self, "valid_from"), recordedAt: recorded, source: "entitlement_interval",
                                         event: "ENTITLEMENT_GRANTED",
                                         details: [("plan", plan), ("valid_until", until.map { ExplainFormat.instant($0) } ?? "open")]))
            if let ended = try row.decodeIfPresent(Date.self, "ended_at"), ended <= asOf {
                entries.append(TimelineEntry(at: ended, recordedAt: nil, source: "entitlement_interval", event: "ENTITLEMENT_ENDED",
                                             details: [("plan", plan)]))
            }
        }
        return entries
    }
}
