import Foundation
import JobKit
import Migrations
import Postgres
import TestSupport
import Testing
import WorldGen

/// The transaction-offer migration (0015): on a database holding a generated world written before it, it applies, the
/// schema equals an empty database's, and its backfill gives each Apple row with a decoded inbound event the offer the
/// projection writes today (the same world loaded after the migration).
@Suite(.serialized) struct TransactionOfferMigrationTests {
    /// `offer_type:offer_discount_type` (empty for NULL) of every row, by transaction key, and whether it names an event.
    static func offers(_ db: PostgresConnection) throws -> [String: (offer: String, hasEvent: Bool)] {
        var result: [String: (offer: String, hasEvent: Bool)] = [:]
        for row in try db.query("""
            SELECT transaction_key AS k, coalesce(offer_type::text, '') || ':' || coalesce(offer_discount_type, '') AS o,
                   inbound_event_id IS NOT NULL AS e
            FROM billing_transaction
            """).rows {
            result[try row.decode(String.self, "k")] = (try row.decode(String.self, "o"), try row.decode(Bool.self, "e"))
        }
        return result
    }

    @Test func onAWorldDatabaseTheBackfillGivesWhatTheProjectionWrites() throws {
        let (all, old, world) = try FinanceTrustMigrationTests.worldDatabase(before: "transaction_offer", named: "test_offer_from_world")
        let rowsBefore = try FinanceTrustMigrationTests.counts(old)
        try Migrator(database: old, files: all).migrate()
        // Later migrations may add tables (empty) or rename one (0033 keeps google_earnings_row's rows under a new
        // name); the tables that were there keep their rows.
        let renamed = ["google_earnings_row": "google_earnings_row_before_0033"]
        let expected = Dictionary(uniqueKeysWithValues: rowsBefore.map { (renamed[$0.key] ?? $0.key, $0.value) })
        let rowsAfter = try FinanceTrustMigrationTests.counts(old)
        #expect(rowsAfter.filter { expected[$0.key] != nil } == expected, "the migration deletes and adds no data row")
        #expect(rowsAfter.filter { expected[$0.key] == nil }.values.allSatisfy { $0 == 0 }, "new tables start empty")
        let (_, fresh) = try TestDatabase.migrated("test_offer_fresh")
        #expect(try HistoryMigrationTests().schema(old) == HistoryMigrationTests().schema(fresh))

        try WorldWriter.load(world, into: fresh)
        let loaded = try Self.offers(fresh)
        let backfilled = try Self.offers(old)
        #expect(Set(loaded.keys) == Set(backfilled.keys))
        // The world has both kinds of free week, so the comparison below can fail.
        #expect(loaded.values.contains { $0.offer == "3:FREE_TRIAL" } && loaded.values.contains { $0.offer == "1:FREE_TRIAL" })
        var wrong: [String] = []
        for (key, row) in loaded {
            let expected = row.hasEvent || !key.hasPrefix("APPLE:") ? row.offer : ":"
            if backfilled[key]?.offer != expected { wrong.append("\(key) \(backfilled[key]?.offer ?? "-") ≠ \(expected)") }
        }
        #expect(wrong.isEmpty, "\(wrong.count) rows, e.g. \(wrong.sorted().prefix(5))")
        let coded = backfilled.values.filter { $0.offer.hasPrefix("3:") }.count
        #expect(coded > 0 && coded == loaded.values.filter { $0.offer.hasPrefix("3:") && $0.hasEvent }.count)
    }
}
