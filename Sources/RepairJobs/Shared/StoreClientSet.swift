import AppStore
import BillingCore
import Foundation
import GooglePlay
import JobKit
import Postgres
import StoreAccess
import StoreCalls

/// The store clients a repair job's run uses (every job shares it); any may be absent (that store is then skipped and counted).
public struct StoreClientSet: Sendable {
    public let apple: AppStoreClient?
    /// A production app's client for Apple's sandbox host (its TestFlight and App Review purchases).
    public let appleSandbox: AppStoreClient?
    public let google: GooglePlayClient?

    /// Wraps the clients.
    public init(apple: AppStoreClient?, appleSandbox: AppStoreClient? = nil, google: GooglePlayClient?) {
        self.apple = apple
        self.appleSandbox = appleSandbox
        self.google = google
    }

    /// Builds the clients for one process: from the environment, the database (shared rate limits) and an observer
    /// that receives every attempt. Tests substitute clients pointed at the simulator.
    public typealias Factory = @Sendable (JobEnvironment, PostgresConfiguration, @escaping @Sendable (StoreCallAttempt) -> Void) throws
        -> StoreClientSet

    /// The production factory: `StoreSettings.read` and `StoreClients` with limits shared in PostgreSQL.
    public static let fromEnvironment: Factory = { environment, database, observer in
        let clients = try StoreClients(settings: try StoreSettings.read(environment), database: database, observer: observer)
        return StoreClientSet(apple: clients.apple, appleSandbox: clients.appleSandbox, google: clients.google)
    }

    /// Get All Subscription Statuses in the environment the subscription lives in. Apple keeps production and
    /// sandbox apart and answers 4040010 (transaction id not found) for the other one's ids; as Apple advises, a
    /// production miss is asked again at the sandbox host. `sandbox` (what the database believes) picks the first host.
    public func appleStatuses(originalTransactionId: String, sandbox: Bool) throws -> [DecodedLastTransactionsItem] {
        guard let apple else { throw RequeryError.notConfigured("Apple") }
        guard let appleSandbox else { return try apple.subscriptionStatuses(transactionId: originalTransactionId) }
        let order = sandbox ? [appleSandbox, apple] : [apple, appleSandbox]
        do {
            return try order[0].subscriptionStatuses(transactionId: originalTransactionId)
        } catch {
            guard case .store(let inner) = error, let api = inner as? AppStoreAPIError, api.errorCode == 4040010 else { throw error }
            return try order[1].subscriptionStatuses(transactionId: originalTransactionId)
        }
    }
}
