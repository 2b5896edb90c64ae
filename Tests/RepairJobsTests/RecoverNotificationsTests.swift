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

    @Test func aNotificationStoredButNeverAttemptedIsProjectedByTheNextRun() throws {
        var options = WorldOptions(seed: 47, subscriptions: 200, months: 5, appleShare: 0.8, testShare: 0)
        options.faultShares = [.appleNotificationNotStored: 0.1]
        let harness = try RequeryHarness(name: "repair_recover_resume", options: options)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        let arguments = ["--as-of", PostgresTimestamp.iso8601(options.asOf),
                         "--since", PostgresTimestamp.iso8601(options.asOf.addingTimeInterval(-170 * 86_400))]
        let job = RecoverNotifications.definition(stores: harness.stores, verifier: harness.verifier)
        let (code, summary) = harness.run(job, arguments)
        #expect(code == .succeeded, "\(summary)")
        // What a run killed between storing a notification and projecting it leaves: the event, unprocessed and never
        // attempted, and none of the history rows it would have written. (The subscription row keeps the first run's
        // projection here, so the rows written again are not compared: CrashRestartTests compares a real kill's.)
        let event = try #require(try db.query("""
            SELECT e.id::text AS id FROM inbound_webhook_event e
            WHERE e.provider = 'APPLE' AND EXISTS (SELECT 1 FROM billing_transaction b WHERE b.inbound_event_id = e.id)
              AND e.received_at = $1::timestamptz ORDER BY e.provider_event_id LIMIT 1
            """, [options.asOf]).first?.decode(String.self, "id"), "a recovered notification that wrote history")
        let removed = try db.execute("DELETE FROM billing_transaction WHERE inbound_event_id = $1::uuid", [event])
        _ = try db.execute("UPDATE inbound_webhook_event SET processed_at = NULL, processing_attempts = 0 WHERE id = $1::uuid", [event])
        #expect(removed > 0)

        let (rerun, rerunSummary) = harness.run(job, arguments)
        #expect(rerun == .succeeded && rerunSummary.contains("\"resumed\":1"), "\(rerunSummary)")
        let processed = try db.query("""
            SELECT processed_at IS NOT NULL AND processing_attempts = 1 AND processing_error IS NULL AS ok
            FROM inbound_webhook_event WHERE id = $1::uuid
            """, [event]).first?.decode(Bool.self, "ok")
        #expect(processed == true, "the rerun projected the stored notification instead of leaving it")
        let (third, thirdSummary) = harness.run(job, arguments)
        #expect(third == .succeeded && !thirdSummary.contains("resumed"), "a processed notification is not resumed again: \(thirdSummary)")
    }

    @Test func defaultWindowStartsAnHourBeforeTheLastSuccessfulRun() throws {
        let options = WorldOptions(seed: 43, subscriptions: 60, months: 2, testShare: 0)
        let harness = try RequeryHarness(name: "repair_recover_window", options: options)
        defer { harness.server.stop(); harness.database.close() }
        let job = RecoverNotifications.definition(stores: harness.stores, verifier: harness.verifier)
        let first = PostgresTimestamp.iso8601(options.asOf.addingTimeInterval(-86_400))
        let (code, summary) = harness.run(job, ["--as-of", first])
        #expect(code == .succeeded && summary.contains("2026-11-27T00:00:00"), "first run: 24 h back: \(summary)")
        let (second, secondSummary) = harness.run(job, ["--as-of", PostgresTimestamp.iso8601(options.asOf)])
        #expect(second == .succeeded && secondSummary.contains("2026-11-27T23:00:00"), "overlap of 1 h: \(secondSummary)")
    }
}
