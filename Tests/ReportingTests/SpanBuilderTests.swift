import Foundation
import Postgres
@testable import Reporting
import TestSupport
import Testing

/// build-reports computes the spans in the client (`SpanBuilder`, migration 0046), and from the same rows the trials;
/// `report_span` and `report_trial` (migration 0051) stay their definitions. Each pair must return the same rows, as
/// multisets (EXCEPT ALL both ways), on generated worlds at three seeds, both bases, three as-of instants, for every
/// subscription and for a chosen few (the nightly's touched ones), and on hand-made histories that exercise each rule
/// the world may not (rows at one instant, a grace priced each way, the renewal switch, a test row, a trial's
/// outcomes).
@Suite(.serialized) struct SpanBuilderTests {
    /// Rows of `left` not in `right`, plus rows of `right` not in `left` (multisets).
    static func differences(_ db: PostgresConnection, _ left: String, _ right: String) throws -> Int {
        let count = try db.query("""
            SELECT (SELECT count(*) FROM ((\(left)) EXCEPT ALL (\(right))) a) + (SELECT count(*) FROM ((\(right)) EXCEPT ALL (\(left))) b)
            """).textRows().first?.first.flatMap { $0 }
        return Int(count ?? "") ?? -1
    }

    /// A second connection to the harness's database, the history's reader.
    static func reader(_ harness: ReportingHarness) throws -> PostgresConnection {
        try PostgresConnection(configuration: try TestDatabase.serverConfiguration().withDatabase(harness.databaseName))
    }

    /// The client's spans and trials in temporary tables `name` and `name_trial`, against report_span's and
    /// report_trial's for the same arguments.
    static func compare(_ db: PostgresConnection, reader: PostgresConnection, asOf: String, basis: String, subscriptions: String?,
                        name: String = "built") throws -> (differences: Int, spans: Int, trialDifferences: Int, trials: Int) {
        try db.execute("DROP TABLE IF EXISTS pg_temp.\(name), pg_temp.\(name)_trial")
        try db.execute("CREATE TEMP TABLE \(name) (LIKE public.report_span_run)")
        try db.execute("CREATE TEMP TABLE \(name)_trial (LIKE public.report_trial_run)")
        let trials = try SpillFile(purpose: "test trials")
        let spans = try SpanBuilder.fill("pg_temp." + name, trials: trials, database: db, reader: reader, asOf: asOf,
                                         basis: basis, subscriptions: subscriptions)
        _ = try db.copyIn("COPY pg_temp.\(name)_trial FROM STDIN (FORMAT binary)") { copy in
            try trials.readAll { try copy.writeRaw($0) }
        }
        let ids = subscriptions.map { "'\($0)'::uuid[]" } ?? "NULL::uuid[]"
        let arguments = "('\(asOf)'::timestamptz, '\(basis)', \(ids))"
        let trialCount = try db.query("SELECT count(*) FROM pg_temp.\(name)_trial").textRows().first?.first.flatMap { $0 }
        return (try differences(db, "SELECT * FROM pg_temp.\(name)", "SELECT * FROM report_span\(arguments)"), spans,
                try differences(db, "SELECT * FROM pg_temp.\(name)_trial", "SELECT * FROM report_trial\(arguments)"),
                Int(trialCount ?? "") ?? -1)
    }

    @Test(arguments: [15, 23, 71] as [UInt64])
    func theClientsSpansAreReportSpansOnAGeneratedWorld(seed: UInt64) throws {
        let harness = try ReportingHarness("span_builder_\(seed)", seed: seed, subscriptions: 500, months: 10)
        let db = harness.database
        let reader = try Self.reader(harness)
        defer { reader.close() }
        let kinds = try db.query("""
            SELECT count(*) FILTER (WHERE event_type = 'ENTERED_GRACE_PERIOD')::int AS grace,
                   count(*) FILTER (WHERE event_type = 'RECOVERED')::int AS recovered,
                   count(*) FILTER (WHERE event_type = 'CANCELED')::int AS switches,
                   count(*) FILTER (WHERE is_test)::int AS tests
            FROM billing_transaction
            """).first
        for kind in ["grace", "recovered", "switches", "tests"] {
            #expect(try (kinds?.decode(Int.self, kind) ?? 0) > 0, "the world has \(kind) rows")
        }
        let asOf = harness.options.asOf
        let instants = [harness.asOf, PostgresTimestamp.iso8601(asOf.addingTimeInterval(-47 * 86_400)),
                        PostgresTimestamp.iso8601(asOf.addingTimeInterval(-160.5 * 86_400))]
        for instant in instants {
            for basis in ["corrected", "known"] {
                let all = try Self.compare(db, reader: reader, asOf: instant, basis: basis, subscriptions: nil)
                #expect(all.differences == 0, "every subscription, \(instant) \(basis)")
                #expect(all.spans > 500, "spans \(instant) \(basis)")
                #expect(all.trialDifferences == 0, "every trial, \(instant) \(basis)")
                #expect(all.trials > 20, "trials \(instant) \(basis)")
            }
        }
        // A few subscriptions (as a nightly recomputes the touched ones), one of them unknown.
        let ids = try db.query("""
            SELECT '{' || string_agg(id::text, ',') || ',00000000-0000-0000-0000-000000000001}'
            FROM (SELECT id FROM subscription ORDER BY id LIMIT 17) s
            """).textRows().first?.first.flatMap { $0 } ?? "{}"
        let few = try Self.compare(db, reader: reader, asOf: harness.asOf, basis: "corrected", subscriptions: ids)
        #expect(few.differences == 0)
        #expect(few.spans > 17)
        #expect(few.trialDifferences == 0)
        // The comparison can fail: the definition at another instant differs.
        _ = try Self.compare(db, reader: reader, asOf: instants[1], basis: "corrected", subscriptions: nil, name: "earlier")
        #expect(try Self.differences(db, "SELECT * FROM pg_temp.earlier",
                                     "SELECT * FROM report_span('\(harness.asOf)'::timestamptz, 'corrected', NULL)") > 0)
        #expect(try Self.differences(db, "SELECT * FROM pg_temp.earlier_trial",
                                     "SELECT * FROM report_trial('\(harness.asOf)'::timestamptz, 'corrected', NULL)") > 0)
    }

    /// Histories written by hand, one subscription each, for the rules a world may leave out.
    @Test func theClientsSpansAreReportSpansOnHandMadeHistories() throws {
        let harness = try ReportingHarness("span_builder_hand", seed: 15, subscriptions: 20, months: 3)
        let db = harness.database
        let reader = try Self.reader(harness)
        defer { reader.close() }
        // Subscriptions 1-7 (the world's first subscription's provider, account and plan), each with a history of
        // (event, key, instant, amount, period end, expires).
        let histories: [(Int, [(String, String, String, Int64?, String?, String?)])] = [
            // 1: trial, paid renewals, cancelled (switch), expired; two rows at one instant ordered by rank and key.
            (1, [("PURCHASED", "k1", "2026-01-05Z", 0, "2026-01-12Z", nil),
                 ("RENEWED", "k2", "2026-01-12Z", 9_990_000, "2026-02-12Z", nil),
                 ("CANCELED", "k3", "2026-01-20Z", nil, nil, nil),
                 ("RESTARTED", "k4", "2026-01-25Z", nil, nil, nil),
                 ("RENEWED", "k6", "2026-02-12Z", 9_990_000, "2026-03-12Z", nil),
                 ("ENTERED_GRACE_PERIOD", "k5", "2026-02-12Z", nil, nil, "2026-02-19Z"),
                 ("EXPIRED", "k7", "2026-03-12Z", nil, nil, nil)]),
            // 2: a grace priced by the RECOVERED charge after it, then on hold, paused.
            (2, [("PURCHASED", "a", "2026-01-03Z", 4_990_000, "2026-02-03Z", nil),
                 ("ENTERED_GRACE_PERIOD", "b", "2026-02-03Z", nil, nil, "2026-02-10Z"),
                 ("RECOVERED", "c", "2026-02-08Z", 5_990_000, "2026-03-08Z", nil),
                 ("ENTERED_ON_HOLD", "d", "2026-03-08Z", nil, nil, nil),
                 ("PAUSED", "e", "2026-03-20Z", nil, nil, nil)]),
            // 3: a grace with its own amount (priced at the latest charge's factor), and one after a free trial only.
            (3, [("PURCHASED", "x1", "2026-01-03Z", 0, "2026-01-10Z", nil),
                 ("ENTERED_GRACE_PERIOD", "x2", "2026-01-10Z", nil, nil, "2026-01-17Z"),
                 ("PURCHASED", "x3", "2026-01-20Z", 19_990_000, "2027-01-20Z", nil),
                 ("ENTERED_GRACE_PERIOD", "x4", "2027-01-20Z", 21_990_000, nil, "2027-01-27Z")]),
            // 4: a test row: the subscription counts nowhere.
            (4, [("PURCHASED", "t1", "2026-01-03Z", 4_990_000, "2026-02-03Z", nil),
                 ("RENEWED", "t2", "2026-02-03Z", 4_990_000, "2026-03-03Z", nil)]),
            // 5: a refund ends the paid span; a grace with no expiry.
            (5, [("PURCHASED", "r1", "2026-01-03Z", 4_990_000, "2026-02-03Z", nil),
                 ("REFUNDED", "r2", "2026-01-10Z", -4_990_000, nil, nil),
                 ("PURCHASED", "r3", "2026-01-15Z", 4_990_000, "2026-02-15Z", nil),
                 ("ENTERED_GRACE_PERIOD", "r4", "2026-02-15Z", nil, nil, nil)]),
            // 6: three charges at one instant, ordered by their keys' bytes ("B" < "a" < "b").
            (6, [("PURCHASED", "b", "2026-01-03Z", 1_000_000, "2026-02-03Z", nil),
                 ("PRODUCT_CHANGED", "B", "2026-01-03Z", 2_000_000, "2026-02-03Z", nil),
                 ("RENEWED", "a", "2026-01-03Z", 3_000_000, "2026-02-03Z", nil)]),
            // 7: a row the as-of instant does not read yet.
            (7, [("PURCHASED", "f1", "2026-01-03Z", 4_990_000, "2026-02-03Z", nil),
                 ("RENEWED", "f2", "2027-06-03Z", 4_990_000, "2027-07-03Z", nil)]),
            // 8: a trial's outcomes: switched off, on and off again within it (the last counts), on after its end (does
            // not), on hold before the paid charge that recovers it, ended later.
            (8, [("PURCHASED", "p1", "2026-01-05Z", 0, "2026-01-19Z", nil),
                 ("CANCELED", "p2", "2026-01-07Z", nil, nil, nil),
                 ("RESTARTED", "p3", "2026-01-09Z", nil, nil, nil),
                 ("CANCELED", "p4", "2026-01-12Z", nil, nil, nil),
                 ("RESTARTED", "p5", "2026-01-25Z", nil, nil, nil),
                 ("ENTERED_ON_HOLD", "p6", "2026-01-19Z", nil, nil, nil),
                 ("RECOVERED", "p7", "2026-01-28Z", 9_990_000, "2026-02-28Z", nil),
                 ("EXPIRED", "p8", "2026-02-28Z", nil, nil, nil)]),
            // 9: a first charge that is paid, then one of 0: no trial.
            (9, [("PURCHASED", "q1", "2026-01-05Z", 4_990_000, "2026-02-05Z", nil),
                 ("RENEWED", "q2", "2026-02-05Z", 0, "2026-03-05Z", nil)]),
        ]
        var ids: [Int: String] = [:]
        for (number, rows) in histories {
            let id = try db.query("""
                INSERT INTO subscription (provider, billing_account_id, plan_id, status)
                SELECT provider, \(number == 3 ? "NULL" : "billing_account_id"), plan_id, 'ACTIVE' FROM subscription ORDER BY id LIMIT 1
                RETURNING id::text
                """).textRows().first?.first.flatMap { $0 } ?? ""
            ids[number] = id
            for (event, key, at, amount, periodEnd, expires) in rows {
                try db.execute("""
                    INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at,
                        amount_micros, currency_code, country_code, product_id, billing_period, period_end_at, expires_at,
                        is_test, refund_kind, raw_payload)
                    SELECT $1::uuid, (SELECT provider FROM subscription WHERE id = $1::uuid), $2::billing_event_type, $3,
                           $4::timestamptz, $5::bigint, CASE WHEN $5::bigint IS NOT NULL THEN 'USD' END, 'US', 'pro-' || $3,
                            CASE WHEN $6::timestamptz - $4::timestamptz > interval '200 days' THEN 'P1Y'
                                 WHEN $6::timestamptz - $4::timestamptz < interval '8 days' THEN 'P1W' ELSE 'P1M' END,
                            $6::timestamptz, $7::timestamptz, $8, CASE WHEN $2 = 'REFUNDED' THEN 'REFUND'::refund_kind END, '{}'::jsonb
                    """, [id, event, "\(number)-\(key)", at, amount, periodEnd, expires, number == 4 && key == "t2"])
            }
        }
        for asOf in ["2026-01-10T00:00:00Z", "2026-02-09T00:00:00Z", "2026-12-31T00:00:00Z", "2027-12-31T00:00:00Z"] {
            let result = try Self.compare(db, reader: reader, asOf: asOf, basis: "corrected", subscriptions: nil)
            #expect(result.differences == 0, "as of \(asOf)")
            #expect(result.trialDifferences == 0, "trials as of \(asOf)")
        }
        // The trial of subscription 8 as of the last instant, as report_trial defines it.
        let eight = try db.query("""
            SELECT trial_at::date::text, converted_at::date::text, failed_at::date::text, ended_at::date::text,
                   off_at::date::text, on_at::date::text
            FROM pg_temp.built_trial WHERE subscription_id = $1::uuid
            """, [ids[8] ?? ""]).textRows()
        #expect(eight.map { $0.map { $0 ?? "-" } } == [["2026-01-05", "2026-01-28", "2026-01-19", "2026-02-28", "2026-01-12", "2026-01-09"]])
        let nine = try db.query("SELECT count(*) FROM pg_temp.built_trial WHERE subscription_id = $1::uuid", [ids[9] ?? ""])
            .textRows().first?.first.flatMap { $0 }
        #expect(nine == "0", "a first charge that is paid is no trial")
        let hand = "{" + ids.values.sorted().joined(separator: ",") + "}"
        let late = try Self.compare(db, reader: reader, asOf: "2027-12-31T00:00:00Z", basis: "corrected", subscriptions: hand)
        #expect(late.differences == 0)
        #expect(late.spans >= 20)
        #expect(late.trialDifferences == 0)
        #expect(late.trials >= 3)
        let tested = try db.query("SELECT count(*) FROM report_span('2027-12-31Z', 'corrected', NULL) WHERE subscription_id = $1::uuid",
                                  [ids[4] ?? ""]).textRows().first?.first.flatMap { $0 }
        #expect(tested == "0", "a subscription with a test row has no spans")
    }
}
