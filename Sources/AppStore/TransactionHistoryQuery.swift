import Foundation

/// Filters of Get Transaction History v2 (all optional).
public struct TransactionHistoryQuery: Sendable, Hashable {
    public var startDate: Date?
    public var endDate: Date?
    public var productIds: [String]
    public var productTypes: [String]
    public var subscriptionGroupIdentifiers: [String]
    /// "ASCENDING" or "DESCENDING".
    public var sort: String?
    public var inAppOwnershipType: String?
    public var revoked: Bool?

    /// A query; the defaults ask for everything.
    public init(startDate: Date? = nil, endDate: Date? = nil, productIds: [String] = [], productTypes: [String] = [],
                subscriptionGroupIdentifiers: [String] = [], sort: String? = "ASCENDING", inAppOwnershipType: String? = nil,
                revoked: Bool? = nil) {
        self.startDate = startDate
        self.endDate = endDate
        self.productIds = productIds
        self.productTypes = productTypes
        self.subscriptionGroupIdentifiers = subscriptionGroupIdentifiers
        self.sort = sort
        self.inAppOwnershipType = inAppOwnershipType
        self.revoked = revoked
    }

    /// Query items in Apple's names; dates in milliseconds since the epoch.
    var items: [(String, String)] {
        var items: [(String, String)] = []
        if let startDate { items.append(("startDate", String(Int64((startDate.timeIntervalSince1970 * 1000).rounded())))) }
        if let endDate { items.append(("endDate", String(Int64((endDate.timeIntervalSince1970 * 1000).rounded())))) }
        items += productIds.map { ("productId", $0) }
        items += productTypes.map { ("productType", $0) }
        items += subscriptionGroupIdentifiers.map { ("subscriptionGroupIdentifier", $0) }
        if let sort { items.append(("sort", sort)) }
        if let inAppOwnershipType { items.append(("inAppOwnershipType", inAppOwnershipType)) }
        if let revoked { items.append(("revoked", revoked ? "true" : "false")) }
        return items
    }
}
