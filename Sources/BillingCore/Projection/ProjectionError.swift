import Foundation

/// Why a store state could not be projected; identifiers in messages are masked.
public enum ProjectionError: Error, Sendable, Equatable, LocalizedError, CustomStringConvertible {
    /// The provider is not implemented (WEB).
    case unsupportedProvider(BillingProvider)
    /// The store state, subscription and plan disagree on the provider.
    case providerMismatch(expected: BillingProvider, actual: BillingProvider)
    /// The originalTransactionId / purchaseToken belongs to another billing account and is never moved.
    case ownedByAnotherAccount(provider: BillingProvider, identifier: String, ownerAccountId: String, requestedAccountId: String)
    /// The purchase's account token names another account than the one ingesting it.
    case accountTokenMismatch(tokenAccountId: String, requestingAccountId: String)
    /// The store state is for another subscription than `current`.
    case identityMismatch(expected: String, actual: String)
    /// No StoreProductMapping for the product of a subscription the database does not know.
    case productNotMapped(productId: String)
    /// The store state lacks what the projection needs; record the attempt and retry.
    case incompleteStoreState(String)
    /// An amount could not be converted exactly.
    case invalidAmount(MoneyError)

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case .unsupportedProvider(let provider):
            return "Provider \(provider.rawValue) is not supported by the projection"
        case .providerMismatch(let expected, let actual):
            return "Provider mismatch: expected \(expected.rawValue), got \(actual.rawValue)"
        case .ownedByAnotherAccount(let provider, let identifier, let owner, let requested):
            return "\(provider.rawValue) purchase \(Redaction.mask(identifier)) belongs to billing account \(owner); "
                + "it is not moved to \(requested)"
        case .accountTokenMismatch(let tokenAccount, let requesting):
            return "The purchase's account token belongs to billing account \(tokenAccount), not to \(requesting)"
        case .identityMismatch(let expected, let actual):
            return "Store state is for \(Redaction.mask(actual)), not for the subscription's \(Redaction.mask(expected))"
        case .productNotMapped(let productId):
            return "Store product \(productId) has no StoreProductMapping"
        case .incompleteStoreState(let reason):
            return "Store state is incomplete: \(reason)"
        case .invalidAmount(let error):
            return "Store amount is invalid: \(error.description)"
        }
    }

    /// Same as `description`.
    public var errorDescription: String? { description }
}
