import Explain
import Foundation
import JobKit
import Postgres
import TestSupport
import Testing

/// A subscription named by its id is found by comparing uuids (`id = $2::uuid`), in either case; an identifier that
/// is not a uuid is not cast (no SQL error) and still finds by the other identifiers.
@Suite(.serialized) struct SubscriptionLookupByIdTests {
    @Test func anIdInEitherCaseFindsItsSubscriptionAndOtherTextIsNotCast() throws {
        let (_, db) = try TestDatabase.migrated("test_lookup_by_id")
        let seed = try SeedRows.insert(db)
        _ = try SeedRows.insert(db)
        let id = seed.subscriptionID.uuidString.lowercased()
        #expect(try SubscriptionLookup.resolve(id, shown: id, database: db) == id)
        #expect(try SubscriptionLookup.resolve(id.uppercased(), shown: id, database: db) == id)
        try db.execute("INSERT INTO apple_subscription_identity (subscription_id, original_transaction_id) VALUES ($1, '2000000123')",
                       [seed.subscriptionID])
        #expect(try SubscriptionLookup.resolve("2000000123", shown: "x", database: db) == id)
        let error = try #require(throws: JobError.self) { try SubscriptionLookup.resolve("not-a-uuid'; --", shown: "x", database: db) }
        #expect("\(error)".contains("no subscription matches"), "\(error)")
    }
}
