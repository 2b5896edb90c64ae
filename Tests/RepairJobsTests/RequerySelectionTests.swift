import Foundation
import Postgres
import RepairJobs
import Testing
import WorldGen

/// The selection's event-based categories on a generated world: subscriptions with a failed webhook and those
/// refunded recently (by notification) are tagged at least that high, never only as stale.
@Suite(.serialized) struct RequerySelectionTests {
    @Test func failedEventsAndRecentRefundNotificationsOutrankTheStalenessSweep() throws {
        var options = WorldOptions(seed: 101, subscriptions: 900, months: 4, testShare: 0)
        options.faultShares = [.failedWebhook: 0.08, .refundNotReflected: 0.3]
        let harness = try RequeryHarness(name: "selection_categories", options: options)
        defer { harness.server.stop(); harness.database.close() }
        var requery = RequeryOptions(asOf: options.asOf)
        requery.freshHours = 0
        requery.limit = 100_000
        let selected = Dictionary(uniqueKeysWithValues: try RequerySelection.select(harness.database, options: requery)
            .map { ($0.subscriptionId, $0.category) })
        let present = Set(selected.keys)
        func check(_ kind: ProjectionFault, _ category: RequeryCategory, recentOnly: Bool) throws -> Int {
            var faults = harness.world.manifest.faults.filter { $0.kind == kind && present.contains($0.subscriptionId) }
            if recentOnly {
                let recent = Set(try harness.database.query("""
                    SELECT w.payload -> 'transactionInfo' ->> 'originalTransactionId' AS k FROM inbound_webhook_event w
                    WHERE w.provider = 'APPLE' AND w.payload -> 'notification' ->> 'notificationType' IN ('REFUND', 'REVOKE')
                      AND w.received_at >= $1::timestamptz - make_interval(days => $2::int)
                    """, [options.asOf, requery.refundDays]).rows.map { try $0.decode(String.self, "k") })
                faults = faults.filter { recent.contains($0.storeIdentifier) }
            }
            for fault in faults {
                let chosen = selected[fault.subscriptionId]
                #expect((chosen?.priority ?? 99) <= category.priority,
                        "\(kind.rawValue) on \(fault.subscriptionId) selected as \(chosen?.rawValue ?? "nothing"), not at least \(category.rawValue)")
            }
            return faults.count
        }
        #expect(try check(.failedWebhook, .failedEvent, recentOnly: false) > 10)
        let refunds = try check(.refundNotReflected, .refundedRecently, recentOnly: true)
        #expect(refunds >= 1, "\(refunds) recent refund notifications")
        #expect(selected.values.contains(.failedEvent) && selected.values.contains(.refundedRecently))
    }
}
