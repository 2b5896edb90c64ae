import AppStore
import BillingCore
import Foundation
import SimulatorFixtures
import StoreCalls
import StoreSimulator
import Testing

/// The App Store client against the simulator over loopback: each call decoded and verified, each error classified.
@Suite struct AppStoreClientTests {
    @Test func statusesAreVerifiedAndDecoded() throws {
        let harness = try ClientHarness()
        let items = try harness.apple.subscriptionStatuses(transactionId: "1000000000000002")
        let item = try #require(items.first)
        #expect(items.count == 1)
        #expect(item.rawStatus == 1)
        #expect(item.originalTransactionId == "1000000000000001")
        #expect(item.transactionInfo.transactionId == "1000000000000003", "the latest of three transactions")
        #expect(item.renewalInfo?.originalTransactionId == "1000000000000001")
        #expect(harness.log.attempts.map(\.outcome) == ["ok"])
        #expect(harness.log.attempts.first?.endpoint == "apple.getAllSubscriptionStatuses")
    }

    @Test func transactionHistoryFollowsEveryPage() throws {
        let harness = try ClientHarness()
        let history = try harness.apple.transactionHistory(transactionId: "2000000000000001")
        #expect(history.count == 25)
        #expect(history.map(\.transactionId) == (1...25).map { String(2_000_000_000_000_000 + $0) })
        #expect(harness.log.attempts.count == 2, "25 transactions arrive in pages of 20")
        let info = try harness.apple.transactionInfo(transactionId: "2000000000000007")
        #expect(info.transactionId == "2000000000000007")
    }

    @Test func notificationHistoryIsCompleteAndOldestFirst() throws {
        let harness = try ClientHarness()
        let request = NotificationHistoryRequest(start: TruthFixture.now.addingTimeInterval(-150 * 86_400), end: TruthFixture.now)
        let entries = try harness.apple.notificationHistory(request)
        #expect(entries.count == 45)
        let dates = entries.compactMap(\.notification.signedDate)
        #expect(dates == dates.sorted())
        #expect(entries.allSatisfy { $0.transaction != nil && $0.renewalInfo != nil })
        #expect(entries.filter { $0.sendAttempts.first?.sendAttemptResult == "TIMED_OUT" }.count == 4)
        #expect(harness.log.attempts.count == 3)
    }

    @Test func refundsOrdersAndTestNotifications() throws {
        let harness = try ClientHarness()
        let refunds = try harness.apple.refundHistory(transactionId: "2000000000000001")
        #expect(Set(refunds.compactMap(\.transactionId)) == ["2000000000000011", "2000000000000025"], "transactions #10 and #24 (0-based) were revoked")
        let order = try harness.apple.lookUpOrder(orderId: "MK5TTTVWJH")
        #expect(order.status == 0)
        #expect(order.transactions.first?.transactionId == "2000000000000008", "order MK5TTTVWJH is transaction #7 (0-based)")
        let token = try harness.apple.requestTestNotification()
        let test = try harness.apple.testNotificationStatus(token: token)
        #expect(test.notification.rawNotificationType == "TEST")
    }

    @Test func unknownTransactionIsNotFoundWithoutRetries() throws {
        let harness = try ClientHarness()
        let error = storeError(AppStoreAPIError.self) { _ = try harness.apple.subscriptionStatuses(transactionId: "9999999999999999") }
        #expect(error?.errorCode == 4040010)
        #expect(error?.classification == .notFound)
        #expect(harness.log.attempts.map(\.outcome) == ["not_found"])
        #expect(harness.log.attempts.first?.storeErrorCode == "4040010")
    }

    @Test func wrongAppIsRejectedAndNeverReturned() throws {
        let harness = try ClientHarness(bundleId: "com.example.other")
        let error = storeError(AppStoreClientError.self) { _ = try harness.apple.subscriptionStatuses(transactionId: "1000000000000001") }
        guard case .verification(let code, _)? = error else { Issue.record("expected a verification error, got \(String(describing: error))"); return }
        #expect(code.hasPrefix("wrong_app"))
        #expect(harness.log.attempts.map(\.outcome) == ["rejected_answer"], "a wrong app is a configuration error: no retry")
    }

    @Test(arguments: ["5xx", "reset", "truncated", "content-type", "signature"])
    func transientFaultsAreRetriedAndOnlyVerifiedDataComesBack(fault: String) throws {
        let faults = try FaultConfiguration.parse("\(fault)=0.5")
        let harness = try ClientHarness(faults: faults)
        for id in ["1000000000000001", "2000000000000001", "3000000000000001", "1000000000000002"] {
            let items = try harness.apple.subscriptionStatuses(transactionId: id)
            #expect(items.first?.transactionInfo.bundleId == TruthFixture.bundleId)
        }
        let outcomes = harness.log.attempts.map(\.outcome)
        #expect(outcomes.filter { $0 == "ok" }.count == 4)
        #expect(outcomes.count > 4, "at a 50% fault rate some attempts failed and were retried: \(outcomes)")
    }
}
