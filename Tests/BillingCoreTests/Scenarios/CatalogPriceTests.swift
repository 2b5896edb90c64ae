import Foundation
import Testing
@testable import BillingCore

@Suite("Catalog price P-2")
struct CatalogPriceTests {
    @Test("P-2 changing the mapping's display price changes neither the current price nor the entitlement")
    func p2() throws {
        let cheap = StoreProductMapping(provider: .apple, planId: "plan-pro", productId: "com.example.fitness.pro.monthly",
                                        displayPrice: Money(micros: 9_990_000, currencyCode: "USD"))
        var expensive = cheap
        expensive.displayPrice = Money(micros: 19_990_000, currencyCode: "JPY")
        #expect(cheap != expensive)
        #expect(cheap.resolvedPlan(intervalUnit: .monthly) == expensive.resolvedPlan(intervalUnit: .monthly))
        let state = try Fixtures.apple("apple/DID_RENEW.json")
        func run(_ mapping: StoreProductMapping) throws -> ProjectionOutcome {
            try Projection.project(current: TestData.appleSnapshot(.active), storeState: .apple(state),
                                   trigger: TestData.webhook(at: TestData.day(31.5)),
                                   resolved: ResolvedReferences(tokenAccount: TestData.account,
                                                                plan: mapping.resolvedPlan(intervalUnit: .monthly)))
        }
        let before = try run(cheap)
        let after = try run(expensive)
        #expect(before == after)
        #expect(after.subscription.currentPrice == TestData.usd999)
        #expect(after.entitlement.isActive)
    }
}
