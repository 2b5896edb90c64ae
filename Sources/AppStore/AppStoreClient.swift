import BillingCore
import Crypto
import Foundation
import HTTP
import RateLimiting
import StoreAuth
import StoreCalls

/// The App Store Server API client: signed requests, rate-limited retries, and only verified payloads out.
public final class AppStoreClient: Sendable {
    public let configuration: AppStoreConfiguration
    let tokens: AppStoreTokenCache
    let verifier: AppleJWSVerifier
    let executor: StoreCallExecutor
    /// The clock that dates each request's JWT.
    let now: @Sendable () -> Date

    /// A client; `tokens` signs the requests' JWTs (one is reused for the first half of its lifetime),
    /// `verifier` checks every signed payload before it is returned.
    public init(configuration: AppStoreConfiguration, tokens: AppStoreTokenFactory, verifier: AppleJWSVerifier,
                executor: StoreCallExecutor, now: @escaping @Sendable () -> Date = { Date() }) {
        self.configuration = configuration
        self.tokens = AppStoreTokenCache(factory: tokens)
        self.verifier = verifier
        self.executor = executor
        self.now = now
    }

    /// Get All Subscription Statuses: every subscription group's last transactions, verified and decoded.
    public func subscriptionStatuses(transactionId: String, statuses: [Int] = []) throws(StoreCallError) -> [DecodedLastTransactionsItem] {
        try call(.getAllSubscriptionStatuses(transactionId: transactionId, statuses: statuses)) { (response: StatusResponse) in
            var items: [DecodedLastTransactionsItem] = []
            for group in response.data ?? [] {
                for item in group.lastTransactions ?? [] {
                    let transaction = try self.verifyTransaction(item.signedTransactionInfo)
                    let renewal = try item.signedRenewalInfo.map { try self.verifyRenewal($0) }
                    items.append(DecodedLastTransactionsItem(item: item, transactionInfo: transaction, renewalInfo: renewal))
                }
            }
            return items
        }
    }

    /// Get Transaction Info.
    public func transactionInfo(transactionId: String) throws(StoreCallError) -> JWSTransactionDecodedPayload {
        try call(.getTransactionInfo(transactionId: transactionId)) { (response: TransactionInfoResponse) in
            try self.verifyTransaction(response.signedTransactionInfo)
        }
    }

    /// Get Transaction History v2, every page (the same query repeated with each new revision).
    public func transactionHistory(transactionId: String, query: TransactionHistoryQuery = TransactionHistoryQuery())
        throws(StoreCallError) -> [JWSTransactionDecodedPayload] {
        try pages { (revision: String?) throws(StoreCallError) in
            try self.call(.getTransactionHistory(transactionId: transactionId, query: query, revision: revision)) { (page: HistoryResponse) in
                (try (page.signedTransactions ?? []).map { try self.verifyTransaction($0) }, page.hasMore == true ? page.revision : nil)
            }
        }
    }

    /// Get Refund History, every page.
    public func refundHistory(transactionId: String) throws(StoreCallError) -> [JWSTransactionDecodedPayload] {
        try pages { (revision: String?) throws(StoreCallError) in
            try self.call(.getRefundHistory(transactionId: transactionId, revision: revision)) { (page: HistoryResponse) in
                (try (page.signedTransactions ?? []).map { try self.verifyTransaction($0) }, page.hasMore == true ? page.revision : nil)
            }
        }
    }

    /// Get Notification History over a window, every page, oldest first.
    public func notificationHistory(_ request: NotificationHistoryRequest) throws(StoreCallError) -> [AppleNotificationEntry] {
        try pages { (token: String?) throws(StoreCallError) in try self.notificationHistoryPage(request, token: token) }
    }

    /// Get Notification History page by page: `eachPage` runs on every verified page as it arrives, so a caller keeps
    /// what earlier pages gave when a later page fails. Rethrows the first error of a page or of `eachPage`.
    public func notificationHistory(_ request: NotificationHistoryRequest, eachPage: ([AppleNotificationEntry]) throws -> Void) throws {
        var token: String?
        repeat {
            let (entries, next) = try notificationHistoryPage(request, token: token)
            try eachPage(entries)
            guard next != token else { break }
            token = next
        } while token != nil
    }

    private func notificationHistoryPage(_ request: NotificationHistoryRequest, token: String?)
        throws(StoreCallError) -> ([AppleNotificationEntry], String?) {
        try call(.getNotificationHistory(request, paginationToken: token)) { (page: NotificationHistoryResponse) in
            let entries = try (page.notificationHistory ?? []).map {
                try self.verifyNotification($0.signedPayload, sendAttempts: $0.sendAttempts ?? [])
            }
            return (entries, page.hasMore == true ? page.paginationToken : nil)
        }
    }

    /// Look Up Order ID: Apple's status (0 valid, 1 invalid) and the order's transactions.
    public func lookUpOrder(orderId: String) throws(StoreCallError) -> (status: Int, transactions: [JWSTransactionDecodedPayload]) {
        try call(.lookUpOrderId(orderId: orderId)) { (response: OrderLookupResponse) in
            (response.status ?? 1, try (response.signedTransactions ?? []).map { try self.verifyTransaction($0) })
        }
    }

    /// Request a Test Notification; returns the token to poll with.
    public func requestTestNotification() throws(StoreCallError) -> String {
        try call(.requestTestNotification) { (response: SendTestNotificationResponse) in
            guard let token = response.testNotificationToken else {
                throw AppStoreClientError.undecodable(endpoint: "requestTestNotification", detail: "no testNotificationToken")
            }
            return token
        }
    }

    /// Get Test Notification Status.
    public func testNotificationStatus(token: String) throws(StoreCallError) -> AppleNotificationEntry {
        try call(.getTestNotificationStatus(token: token)) { (response: CheckTestNotificationResponse) in
            try self.verifyNotification(response.signedPayload, sendAttempts: response.sendAttempts ?? [])
        }
    }
}
