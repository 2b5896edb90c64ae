import Foundation
import JobKit
import Postgres

/// Everything one process's run needs (what the job context provides, in a form tests can build).
public struct RequeryRun {
    public let database: PostgresConnection
    public let environment: JobEnvironment
    public let options: RequeryOptions
    public let jobRunID: Int64?
    public let dryRun: Bool
    public let logger: JobLogger
    public let stores: StoreClientSet.Factory
    public let stop: RequeryStop

    /// Bundles the inputs of a run.
    public init(database: PostgresConnection, environment: JobEnvironment, options: RequeryOptions, jobRunID: Int64?, dryRun: Bool,
                logger: JobLogger, stores: @escaping StoreClientSet.Factory, stop: RequeryStop) {
        self.database = database
        self.environment = environment
        self.options = options
        self.jobRunID = jobRunID
        self.dryRun = dryRun
        self.logger = logger
        self.stores = stores
        self.stop = stop
    }
}
