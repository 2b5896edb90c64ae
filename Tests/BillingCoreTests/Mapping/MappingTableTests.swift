import Foundation
import Testing
@testable import BillingCore

@Suite("Mapping tables: one fixture per design-doc row")
struct MappingTableTests {
    @Test("Every Apple design-doc row has a table row whose fixture exists and matches")
    func appleRowsHaveFixtures() throws {
        for (type, subtype) in AppleMappingTable.designDocRows {
            let rows = AppleMappingTable.rows.filter { $0.notificationType == type && $0.subtype == subtype }
            #expect(!rows.isEmpty, "no table row for \(type)/\(subtype ?? "-")")
            for row in rows {
                #expect(try Fixtures.exists(row.fixture), "missing fixture \(row.fixture)")
                let notification = try #require(try Fixtures.appleFixture(row.fixture).notification)
                #expect(notification.rawNotificationType == type)
                #expect(notification.rawSubtype == subtype)
            }
        }
        #expect(AppleMappingTable.rows.count == 20)
    }

    @Test("Every Apple fixture belongs to a table row or a documented extra")
    func noOrphanAppleFixtures() throws {
        let known = Set(AppleMappingTable.rows.map(\.fixture)).union(AppleMappingTable.extras)
        for path in try Fixtures.list("apple") { #expect(known.contains(path), "orphan fixture \(path)") }
    }

    @Test("Every required Google notification type has a table row whose fixture exists and matches")
    func googleRowsHaveFixtures() throws {
        #expect(Set(GoogleMappingTable.rows.map(\.notificationType)) == GoogleMappingTable.requiredTypes)
        for row in GoogleMappingTable.rows {
            #expect(try Fixtures.exists(row.fixture), "missing fixture \(row.fixture)")
            let loaded = try Fixtures.google(row.fixture)
            #expect(loaded.notification.subscriptionNotification?.rawNotificationType == row.notificationType)
        }
        let known = Set(GoogleMappingTable.rows.map(\.fixture))
        for path in try Fixtures.list("google") { #expect(known.contains(path), "orphan fixture \(path)") }
    }

    @Test("Apple V2 row", arguments: AppleMappingTable.rows)
    func appleRow(_ row: AppleMappingRow) throws {
        let current = row.prior.map { prior in
            TestData.appleSnapshot(prior, autoRenew: row.priorAutoRenew)
        }
        let outcome = try TestData.projectApple(row.fixture, current: current)
        #expect(outcome.status == row.status)
        #expect(outcome.eventType == row.eventType)
        #expect(outcome.entitlement.isActive == row.entitled)
        #expect(outcome.disposition == .applied || row.prior == row.status)
        if let eventType = row.eventType {
            #expect(outcome.transactions.contains { $0.eventType == eventType }, "no \(eventType) row recorded")
        }
        for record in outcome.transactions {
            #expect(record.transactionKey.hasPrefix("APPLE:\(TestData.originalTransactionId):"))
            #expect(record.inboundEventId == "iwe-0001")
        }
    }

    @Test("Google RTDN row", arguments: GoogleMappingTable.rows)
    func googleRow(_ row: GoogleMappingRow) throws {
        let current = row.prior.map { TestData.googleSnapshot($0) }
        let outcome = try TestData.projectGoogle(row.fixture, current: current)
        #expect(outcome.status == row.status)
        #expect(outcome.eventType == row.eventType)
        #expect(outcome.entitlement.isActive == row.entitled)
        if let eventType = row.eventType {
            #expect(outcome.transactions.contains { $0.eventType == eventType }, "no \(eventType) row recorded")
        }
        for record in outcome.transactions {
            #expect(record.transactionKey.hasPrefix("GOOGLE:\(TestData.googleToken):"))
            #expect(!record.transactionKey.contains("..99"))
        }
    }
}
