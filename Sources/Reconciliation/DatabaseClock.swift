import Foundation
import Postgres

extension PostgresConnection {
    /// The database's clock now (`clock_timestamp()`): the clock `recorded_at` and a close's instant are read from.
    func clockTimestamp() throws -> Date? {
        try query("SELECT clock_timestamp() AS t").first.map { try $0.decode(Date.self, "t") }
    }
}
