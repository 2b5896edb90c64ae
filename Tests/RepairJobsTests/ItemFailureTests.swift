import BillingCore
import Foundation
import HTTP
import RepairJobs
import StoreCalls
import Testing

/// A repair item's failure keeps the kind of the error that caused it, through any number of wrappings, and the
/// breach message names the commonest kinds.
struct ItemFailureTests {
    @Test func theCauseDecidesTheKindAndTheTextDoesNot() {
        let cause = StoreCallError.transport(.responseTooLarge(limitBytes: 10))
        let failure = ItemFailure("subscription s: subscriptionsv2.get failed", causedBy: cause)
        #expect(failure.failureKind == .tooLarge)
        #expect(failure.description == "subscription s: subscriptionsv2.get failed: \(cause)")
        #expect(ItemFailure("event 7", causedBy: failure).failureKind == .tooLarge)
        #expect(ItemFailure(failure) == failure)
        #expect(ItemFailure(HTTPError.timeout(seconds: 1, message: "x")).failureKind == .timeout)
        #expect(ItemFailure("store said: HTTP timeout, answered HTTP 503, signature").failureKind == .other)
        #expect(ItemFailure("Apple is not configured", kind: .notConfigured).failureKind.name == "not_configured")
    }

    @Test func theBreachMessageNamesTheCommonestKinds() {
        let message = FailedItems.message(["failed": 5, "failed.timeout": 3, "failed.http_503": 2])
        #expect(message == "5 items failed and are left for the next run; commonest errors: timeout 3, http_503 2")
    }
}
