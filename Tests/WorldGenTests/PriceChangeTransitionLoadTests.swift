import Foundation
import Postgres
import TestSupport
import Testing
@testable import WorldGen

/// The world loader writes `subscription_price_change_transition` as `ProjectionWriter` does (every state a change
/// reached, once, at the store's instant), so a loaded world holds the transitions the webhook path would have written.
@Suite(.serialized) struct PriceChangeTransitionLoadTests {
    @Test func loadedTransitionsAreTheOnesTheWriterWrites() throws {
        let world = try World.generate(WorldOptions(seed: 7, subscriptions: 1_500, months: 12))
        let (_, database) = try TestDatabase.migrated("test_worldgen_price_transitions")
        defer { database.close() }
        try WorldWriter.load(world, into: database)
        func count(_ sql: String) throws -> Int64 { try database.query(sql).rows.first?.decode(Int64.self, "n") ?? -1 }
        let loaded = try count("SELECT count(*) AS n FROM subscription_price_change_transition")
        let changes = try count("SELECT count(*) AS n FROM subscription_price_change")
        #expect(changes > 0 && loaded >= changes, "\(loaded) transitions for \(changes) price changes")
        // Every change row holds a transition of its own (last) state, and every told change a PENDING one.
        #expect(try count("""
            SELECT count(*) AS n FROM subscription_price_change c WHERE NOT EXISTS (
              SELECT 1 FROM subscription_price_change_transition t WHERE t.price_change_id = c.id AND t.state = c.state)
            """) == 0)
        #expect(try count("""
            SELECT count(*) AS n FROM subscription_price_change c WHERE c.state <> 'PENDING' AND NOT EXISTS (
              SELECT 1 FROM subscription_price_change_transition t WHERE t.price_change_id = c.id AND t.state = 'PENDING')
            """) == 0)
        // A re-query of every final store state through the writer finds each state already recorded.
        let findings = try WorldTestSupport.requeryAll(world, database)
        #expect(findings.isEmpty)
        #expect(try count("SELECT count(*) AS n FROM subscription_price_change_transition") == loaded)
    }
}
