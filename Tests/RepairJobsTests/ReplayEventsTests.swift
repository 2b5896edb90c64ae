import Foundation
import Postgres
import RepairJobs
import Testing
import WorldGen

@Suite(.serialized) struct ReplayEventsTests {
    @Test func replaysEveryFailedWebhookTouchesNothingElseAndSecondRunChangesNothing() throws {
        var options = WorldOptions(seed: 31, subscriptions: 900, months: 6, testShare: 0)
        options.faultShares = [.failedWebhook: 0.06]
        let harness = try RequeryHarness(name: "repair_replay", options: options)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        let asOf = PostgresTimestamp.iso8601(options.asOf)
        let job = ReplayEvents.definition(stores: harness.stores, verifier: harness.verifier)
        let faults = harness.world.manifest.faults.filter { $0.kind == .failedWebhook }
        #expect(faults.count > 10)
        let initial = try Dump.all(db)
        let untouched = try RepairCheck.untouched(db, world: harness.world, kinds: [.failedWebhook])
        let faultEvents = Set(faults.compactMap(\.eventId))
        let untouchedBefore = try RepairCheck.dump(db, subscriptions: untouched, excludedEvents: faultEvents)
        let queryable = Set(harness.world.truth.google.subscriptions.filter(\.queryable).map(\.purchaseToken))
        let gone = faults.filter { $0.provider == "GOOGLE" && !queryable.contains($0.storeIdentifier) }
        let replayable = faults.filter { $0.provider == "APPLE" || queryable.contains($0.storeIdentifier) }

        let (dryCode, drySummary) = harness.run(job, ["--as-of", asOf, "--dry-run"])
        #expect(dryCode == .succeeded, "\(drySummary)")
        #expect(try Dump.all(db) == initial, "--dry-run writes nothing")
        #expect(try RepairCheck.int(db, "SELECT count(*)::int AS n FROM store_query") == 0)

        let (code, summary) = harness.run(job, ["--as-of", asOf])
        #expect(code == .succeeded, "\(summary)")
        #expect(summary.contains("\"projected\":\(replayable.count)"), "\(summary)")
        for fault in gone {
            let dead = try RepairCheck.int(db, """
                SELECT count(*)::int AS n FROM dead_letter d JOIN inbound_webhook_event e ON d.source_id = e.id::text WHERE e.provider_event_id = $1
                """, [fault.eventId ?? ""])
            #expect(dead == 1, "a token gone at Google (410) is dead-lettered at once")
        }
        for fault in replayable {
            let row = try db.query("SELECT processed_at IS NOT NULL AND processing_error IS NULL AS ok FROM inbound_webhook_event WHERE provider_event_id = $1",
                                   [fault.eventId ?? ""]).first
            #expect(try row?.decode(Bool.self, "ok") == true, "event \(fault.eventId ?? "nil") not processed")
        }
        let queried = try RepairCheck.int(db, "SELECT count(*)::int AS n FROM store_query WHERE endpoint IN ('apple.getAllSubscriptionStatuses', 'google.subscriptionsv2.get')")
        #expect(queried >= replayable.count, "store attempts are recorded as store_query rows")
        let after = try Dump.all(db)
        let untouchedAfter = try RepairCheck.dump(db, subscriptions: untouched, excludedEvents: faultEvents)
        let outside = RepairCheck.changedRows(untouchedBefore, untouchedAfter)
        #expect(outside.isEmpty, "changed outside the manifest: \(outside.count): \(outside.prefix(3))")

        let (secondCode, secondSummary) = harness.run(job, ["--as-of", asOf])
        #expect(secondCode == .succeeded && secondSummary.contains("\"selected\":0"), "\(secondSummary)")
        #expect(try Dump.all(db) == after, "the second run changes nothing")

        // The database now equals the store truth for every replayed subscription: a full re-query finds no drift there.
        let (requeryCode, requerySummary) = harness.runJob(["--as-of", asOf, "--fresh-hours", "0"])
        #expect(requeryCode == .succeeded, "\(requerySummary)")
        let drifted = Set(try db.query("SELECT DISTINCT subscription_id::text AS id FROM drift_event").rows.map { try $0.decode(String.self, "id") })
        let stillWrong = replayable.filter { drifted.contains($0.subscriptionId) }.map { "\($0.provider) \($0.correctValue ?? "")" }
        #expect(stillWrong.isEmpty, "replayed subscriptions still differ from the store: \(stillWrong.prefix(5))")
        let goneIds = Set(gone.map(\.subscriptionId))
        #expect(drifted.subtracting(goneIds).isEmpty, "no drift anywhere after the replay: \(drifted.count)")
    }

    /// A status answer older than the notification being replayed (Apple's answer lagging its own notification; the
    /// simulator's `stale` fault serves the previous transaction as the latest) must not mark the event processed
    /// without its transaction: it is left failed (`store_behind`) and the next run, against a store that caught up,
    /// projects the transaction with the notification as its source. Before, the event was marked processed and a later
    /// re-query wrote the charge without it (HostileStoreTests' rerun, 2026-12-03).
    @Test func aStatusAnswerOlderThanTheNotificationLeavesTheEventForTheNextRun() throws {
        var options = WorldOptions(seed: 31, subscriptions: 300, months: 6, testShare: 0)
        options.faultShares = [.failedWebhook: 0.08]
        let harness = try RequeryHarness(name: "repair_replay_behind", options: options, storeFaults: "stale=1", clientTimeout: 10)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        let asOf = PostgresTimestamp.iso8601(options.asOf)
        let job = ReplayEvents.definition(stores: harness.stores, verifier: harness.verifier)

        let (code, summary) = harness.run(job, ["--as-of", asOf])
        #expect(code == .thresholdBreached && summary.contains("store_behind"), "\(summary)")
        let behind = try db.query("""
            SELECT id::text AS id, payload -> 'transactionInfo' ->> 'originalTransactionId' || ':' || (payload -> 'transactionInfo' ->> 'transactionId') AS tx
            FROM inbound_webhook_event
            WHERE provider = 'APPLE' AND processed_at IS NULL AND processing_error LIKE '%began before the notification''s%'
            """).rows.map { (try $0.decode(String.self, "id"), "APPLE:" + (try $0.decode(String.self, "tx"))) }
        #expect(!behind.isEmpty, "some replayed notification is newer than the store's stale answer: \(summary)")
        for (event, key) in behind {
            let adopted = try RepairCheck.int(db, "SELECT count(*)::int AS n FROM billing_transaction WHERE transaction_key = $1 AND inbound_event_id = $2::uuid",
                                              [key, event])
            #expect(adopted == 0, "\(key) is not written from a notification the store has not caught up with")
        }

        harness.simulator.injectFaults(false)
        let (again, againSummary) = harness.run(job, ["--as-of", asOf])
        #expect(again == .succeeded, "\(againSummary)")
        for (event, key) in behind {
            // The charge carries its notification: this one, or (an EXPIRED notification naming the last charge) the
            // renewal's own that wrote it before.
            let written = try RepairCheck.int(db, """
                SELECT count(*)::int AS n FROM billing_transaction b JOIN inbound_webhook_event e ON e.id = $2::uuid
                WHERE b.transaction_key = $1 AND b.inbound_event_id IS NOT NULL AND e.processed_at IS NOT NULL AND e.processing_error IS NULL
                """, [key, event])
            #expect(written == 1, "\(key) is projected with its notification once the store caught up")
        }
    }

    @Test func deadLettersAfterMaxAttemptsAndNeverProjectsUnverifiedPayloads() throws {
        let options = WorldOptions(seed: 37, subscriptions: 150, months: 6, testShare: 0)
        let harness = try RequeryHarness(name: "repair_replay_dead", options: options)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        let asOf = PostgresTimestamp.iso8601(options.asOf)
        let job = ReplayEvents.definition(stores: harness.stores, verifier: harness.verifier)
        let apple = try #require(try db.query("""
            SELECT payload::text AS p FROM inbound_webhook_event
            WHERE provider = 'APPLE' AND payload -> 'notification' ->> 'notificationType' = 'DID_RENEW' ORDER BY received_at DESC LIMIT 1
            """).first?.decode(String.self, "p"))
        let inserts: [(String, String, Bool, String)] = [
            ("GOOGLE", "gone-token", true, #"{"version":"1.0","packageName":"p","eventTimeMillis":"1","subscriptionNotification":{"version":"1.0","notificationType":2,"purchaseToken":"no-such-token-0000000000"}}"#),
            ("APPLE", "forged-signed", true, #"{"signedPayload":"eyJhbGciOiJFUzI1NiJ9.eyJub3RpZmljYXRpb25UeXBlIjoiUkVGVU5EIn0.c2ln"}"#),
            ("APPLE", "unverified-decoded", false, apple),
            ("APPLE", "corrupt", true, #"{"notification": 5}"#),
            ("GOOGLE", "test-notification", true, #"{"version":"1.0","packageName":"p","eventTimeMillis":"1","testNotification":{"version":"1.0"}}"#),
        ]
        for (provider, eventId, verified, payload) in inserts {
            _ = try db.execute("""
                INSERT INTO inbound_webhook_event (provider, provider_event_id, verified, payload, received_at, processing_attempts)
                VALUES ($1::billing_provider, $2, $3, $4::jsonb, $5::timestamptz - interval '1 hour', 0)
                """, [provider, eventId, verified, payload, options.asOf])
        }
        let before = try Dump.all(db)
        for round in 1...3 {
            // Every round leaves the four bad events failed (exit 3): rounds 1 and 2 for the next run, round 3 dead-lettered.
            let (code, summary) = harness.run(job, ["--as-of", asOf, "--max-attempts", "3"])
            #expect(code == .thresholdBreached, "\(summary)")
            #expect(summary.contains("\"selected\":\(round == 1 ? 5 : 4)"), "round \(round): \(summary)")
            let fate = round < 3 ? "4 items failed and are left for the next run" : "4 items failed: 4 dead-lettered after the last attempt"
            #expect(summary.contains(fate), "round \(round): \(summary)")
        }
        let dead = try db.query("""
            SELECT e.provider_event_id AS id, d.attempts, d.reason FROM dead_letter d JOIN inbound_webhook_event e ON d.source_id = e.id::text
            WHERE d.source = 'inbound_webhook_event' ORDER BY 1
            """).rows.map { (try $0.decode(String.self, "id"), try $0.decode(Int.self, "attempts"), try $0.decode(String.self, "reason")) }
        #expect(dead.map(\.0) == ["corrupt", "forged-signed", "gone-token", "unverified-decoded"])
        #expect(dead.allSatisfy { $0.1 == 3 && $0.2.contains("event ") }, "\(dead)")
        #expect(!(dead.first { $0.0 == "gone-token" }?.2.contains("no-such-token-0000000000") ?? true), "the token is masked")
        let (fourth, fourthSummary) = harness.run(job, ["--as-of", asOf, "--max-attempts", "3"])
        #expect(fourth == .succeeded && fourthSummary.contains("\"selected\":0"), "dead letters are not retried: \(fourthSummary)")
        let tested = try RepairCheck.int(db, "SELECT count(*)::int AS n FROM inbound_webhook_event WHERE provider_event_id = 'test-notification' AND processed_at IS NOT NULL")
        #expect(tested == 1)
        let after = try Dump.all(db)
        for table in Dump.tables where table != "inbound_webhook_event" {
            #expect(after[table] == before[table], "\(table) changed: nothing unverified or failed is projected")
        }
        #expect(try RepairCheck.int(db, "SELECT count(*)::int AS n FROM store_query WHERE endpoint LIKE 'apple.%'") == 0,
                "unverified Apple payloads never reach a store call")
    }
}
