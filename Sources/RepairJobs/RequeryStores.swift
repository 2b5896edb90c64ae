import AppStore
import Foundation
import GooglePlay
import JobKit
import Postgres
import StoreAccess
import StoreCalls

/// The store clients a run uses; either may be absent (that store is then skipped and counted).
public struct RequeryStores: Sendable {
    public let apple: AppStoreClient?
    public let google: GooglePlayClient?

    /// Wraps the clients.
    public init(apple: AppStoreClient?, google: GooglePlayClient?) {
        self.apple = apple
        self.google = google
    }

    /// Builds the clients for one process: from the environment, the database (shared rate limits) and an observer
    /// that receives every attempt. Tests substitute clients pointed at the simulator.
    public typealias Factory = @Sendable (JobEnvironment, PostgresConfiguration, @escaping @Sendable (StoreCallAttempt) -> Void) throws
        -> RequeryStores

    /// The production factory: `StoreSettings.read` and `StoreClients` with limits shared in PostgreSQL.
    public static let fromEnvironment: Factory = { environment, database, observer in
        let clients = try StoreClients(settings: try StoreSettings.read(environment), database: database, observer: observer)
        return RequeryStores(apple: clients.apple, google: clients.google)
    }
}
