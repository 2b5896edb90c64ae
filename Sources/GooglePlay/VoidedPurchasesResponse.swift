import BillingCore

/// One page of voidedpurchases.list.
public struct VoidedPurchasesResponse: Sendable, Decodable {
    public var voidedPurchases: [VoidedPurchase]?
    public var tokenPagination: TokenPagination?
}
