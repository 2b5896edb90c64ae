import BillingCore

/// How a store state names its subscription: Apple's originalTransactionId or a Google purchase token
/// (with the token it replaced, so a linked token joins the chain of the subscription it continues).
public enum SubscriptionKey: Sendable, Hashable, CustomStringConvertible {
    case apple(originalTransactionId: String)
    case google(purchaseToken: String, linkedPurchaseToken: String?)
    /// A subscription row id, when the caller already knows it.
    case id(String)

    /// The key of a store state.
    public init(_ storeState: StoreState) {
        switch storeState {
        case .apple(let apple):
            self = .apple(originalTransactionId: apple.transaction.originalTransactionId ?? "")
        case .google(let google):
            self = .google(purchaseToken: google.purchaseToken, linkedPurchaseToken: google.purchase?.linkedPurchaseToken)
        }
    }

    /// A masked form for logs.
    public var description: String {
        switch self {
        case .apple(let id): return "apple:" + Masked.identifier(id)
        case .google(let token, _): return "google:" + Masked.identifier(token)
        case .id(let id): return "subscription:" + id
        }
    }
}

/// Masks store identifiers for logs and error messages.
enum Masked {
    static func identifier(_ value: String) -> String {
        value.count > 10 ? String(value.prefix(4)) + "…" + String(value.suffix(4)) : String(repeating: "•", count: value.count)
    }
}
