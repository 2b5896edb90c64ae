import BillingCore
import Foundation

/// One Orders API order, decoded, with its JSON as the store sent it (kept as the history rows' payload).
public struct GoogleOrderAnswer: Sendable, Equatable {
    public let order: GoogleOrder
    public let raw: Data
}
