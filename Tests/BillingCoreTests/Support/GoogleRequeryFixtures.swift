import Foundation
import Testing
@testable import BillingCore

/// Loads `google/requery/*.json`: bare `subscriptionsv2.get` bodies (provenance in the sibling `.md`).
enum GoogleRequeryFixtures {
    /// The store state of a re-query answer for `token`, with the answer as its raw payload.
    static func state(_ name: String, token: String = TestData.googleToken) throws -> GoogleStoreState {
        let raw = try Fixtures.data("google/requery/\(name).json")
        let purchase = try JSONDecoder().decode(SubscriptionPurchaseV2.self, from: raw)
        return GoogleStoreState(purchaseToken: token, purchase: purchase, rawPayload: raw)
    }

    /// Projects a re-query answer at `now`.
    static func project(_ state: GoogleStoreState, current: SubscriptionSnapshot?, now: Date) throws -> ProjectionOutcome {
        try Projection.project(current: current, storeState: .google(state),
                               trigger: ProjectionTrigger(source: .requery, now: now), resolved: TestData.googleRefs())
    }

    /// Parses an RFC 3339 instant written in a test.
    static func instant(_ text: String) throws -> Date {
        try RFC3339Timestamp(text).date
    }
}
