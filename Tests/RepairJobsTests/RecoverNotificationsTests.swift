import Foundation
import Postgres
import RepairJobs
import Testing
import WorldGen

@Suite(.serialized) struct RecoverNotificationsTests {
    @Test func recoversEveryUnstoredAppleNotificationAndSecondRunChangesNothing() throws {
        var options = WorldOptions(seed: 41, subscriptions: 700, months: 5, appleShare: 0.8, testShare: 0)
        options.faultShares = [.appleNotificationNotStored: 0.08]
        let harness = try RequeryHarness(name: "repair_recover", options: options)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        let asOf = PostgresTimestamp.iso8601(options.asOf)
        let since = PostgresTimestamp.iso8601(options.asOf.addingTimeInterval(-170 * 86_400))
        let job = RecoverNotifications.definition(stores: harness.stores, verifier: harness.verifier)
        let faults = harness.world.manifest.faults.filter { $0.kind == .appleNotificationNotStored }
        #expect(faults.count > 10)
        let untouched = try RepairCheck.untouched(db, world: harness.world, kinds: [.appleNotificationNotStored])
        let faultEvents = Set(faults.compactMap(\.eventId))
        let untouchedBefore = try RepairCheck.dump(db, subscriptions: untouched, excludedEvents: faultEvents)
        let initial = try Dump.all(db)

        let (dryCode, drySummary) = harness.run(job, ["--as-of", asOf, "--since", since, "--dry-run"])
        #expect(dryCode == .succeeded && drySummary.contains("\"missing\":\(faults.count)"), "\(drySummary)")
        #expect(try Dump.all(db) == initial, "--dry-run writes nothing")

        let (code, summary) = harness.run(job, ["--as-of", asOf, "--since", since])
        #expect(code == .succeeded, "\(summary)")
        #expect(summary.contains("\"projected\":\(faults.count)"), "\(summary)")
        for fault in faults {
            let row = try db.query("""
                SELECT processed_at IS NOT NULL AND processing_error IS NULL AND verified AND payload ? 'signedPayload'
                       AND payload ? 'notification' AND payload ? 'transactionInfo' AS ok
                FROM inbound_webhook_event WHERE provider = 'APPLE' AND provider_event_id = $1
                """, [fault.eventId ?? ""]).first
            #expect(try row?.decode(Bool.self, "ok") == true, "notification \(fault.eventId ?? "nil") not recovered")
        }
        #expect(try RepairCheck.int(db, "SELECT count(*)::int AS n FROM store_query WHERE endpoint LIKE 'apple.getNotificationHistory%'") >= 1)
        let untouchedAfter = try RepairCheck.dump(db, subscriptions: untouched, excludedEvents: faultEvents)
        let outside = RepairCheck.changedRows(untouchedBefore, untouchedAfter)
        #expect(outside.isEmpty, "changed outside the manifest: \(outside.count): \(outside.prefix(3))")
        let after = try Dump.all(db)

        let (secondCode, secondSummary) = harness.run(job, ["--as-of", asOf, "--since", since])
        #expect(secondCode == .succeeded && !secondSummary.contains("\"missing\""), "\(secondSummary)")
        #expect(try Dump.all(db) == after, "the second run changes nothing")

        let (requeryCode, requerySummary) = harness.runJob(["--as-of", asOf, "--fresh-hours", "0"])
        #expect(requeryCode == .succeeded, "\(requerySummary)")
        #expect(try RepairCheck.int(db, "SELECT count(*)::int AS n FROM drift_event") == 0, "the recovered subscriptions equal the store")
    }

    @Test func defaultWindowStartsAnHourBeforeTheLastSuccessfulRun() throws {
        let options = WorldOptions(seed: 43, subscriptions: 60, months: 2, testShare: 0)
        let harness = try RequeryHarness(name: "repair_recover_window", options: options)
        defer { harness.server.stop(); harness.database.close() }
        let job = RecoverNotifications.definition(stores: harness.stores, verifier: harness.verifier)
        let firstAsOf = options.asOf.addingTimeInterval(-86_400)
        let (code, summary) = harness.run(job, ["--as-of", PostgresTimestamp.iso8601(firstAsOf)])
        // A first run reaches back as far as Apple keeps production history: 180 days less a minute.
        let reach = String(PostgresTimestamp.iso8601(firstAsOf.addingTimeInterval(-(180 * 86_400 - 60))).prefix(19))
        #expect(code == .succeeded && summary.contains(reach), "first run: 180 days back (\(reach)): \(summary)")
        let (second, secondSummary) = harness.run(job, ["--as-of", PostgresTimestamp.iso8601(options.asOf)])
        #expect(second == .succeeded && secondSummary.contains("2026-11-27T23:00:00"), "overlap of 1 h: \(secondSummary)")
    }
}
