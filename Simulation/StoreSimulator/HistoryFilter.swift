import Crypto

/// The query filters of Get Transaction History v2, validated with Apple's error codes.
struct HistoryFilter {
    var startDate: Int64?
    var endDate: Int64?
    var productIds: Set<String> = []
    var productTypes: Set<String> = []
    var groups: Set<String> = []
    var ownership: String?
    var revoked: Bool?
    var descending = false

    /// Apple's productType values and the transaction `type` each one selects.
    static let productTypes = [
        "AUTO_RENEWABLE": "Auto-Renewable Subscription", "NON_RENEWABLE": "Non-Renewing Subscription",
        "CONSUMABLE": "Consumable", "NON_CONSUMABLE": "Non-Consumable",
    ]

    /// Reads and checks the filters.
    static func parse(_ context: RequestContext) -> Result<HistoryFilter, AppleAPIError> {
        var filter = HistoryFilter()
        if let text = context.query("startDate") {
            guard let value = Int64(text) else { return .failure(.invalidStartDate) }
            filter.startDate = value
        }
        if let text = context.query("endDate") {
            guard let value = Int64(text) else { return .failure(.invalidEndDate) }
            filter.endDate = value
        }
        if let start = filter.startDate, let end = filter.endDate, start >= end { return .failure(.startDateAfterEndDate) }
        if let sort = context.query("sort") {
            guard sort == "ASCENDING" || sort == "DESCENDING" else { return .failure(.invalidSort) }
            filter.descending = sort == "DESCENDING"
        }
        for type in context.queryAll("productType") {
            guard let mapped = productTypes[type] else { return .failure(.invalidProductType) }
            filter.productTypes.insert(mapped)
        }
        if let ownership = context.query("inAppOwnershipType") {
            guard ownership == "PURCHASED" || ownership == "FAMILY_SHARED" else { return .failure(.invalidInAppOwnershipType) }
            filter.ownership = ownership
        }
        if let revoked = context.query("revoked") {
            guard revoked == "true" || revoked == "false" else { return .failure(.invalidRevoked) }
            filter.revoked = revoked == "true"
        }
        filter.productIds = Set(context.queryAll("productId"))
        filter.groups = Set(context.queryAll("subscriptionGroupIdentifier"))
        return .success(filter)
    }

    /// True when `transaction` passes every filter; dates compare with `purchaseDate`, start inclusive, end exclusive.
    func matches(_ transaction: JSONValue) -> Bool {
        let purchased = transaction.integer("purchaseDate") ?? 0
        if let startDate, purchased < startDate { return false }
        if let endDate, purchased >= endDate { return false }
        if !productIds.isEmpty, !productIds.contains(transaction.text("productId") ?? "") { return false }
        if !productTypes.isEmpty, !productTypes.contains(transaction.text("type") ?? "") { return false }
        if !groups.isEmpty, !groups.contains(transaction.text("subscriptionGroupIdentifier") ?? "") { return false }
        if let ownership, transaction.text("inAppOwnershipType") != ownership { return false }
        if let revoked, Self.isRevoked(transaction) != revoked { return false }
        return true
    }
}

extension HistoryFilter {
    /// True when the transaction carries a non-null `revocationDate`.
    static func isRevoked(_ transaction: JSONValue) -> Bool {
        if let date = transaction["revocationDate"], date != .null { return true }
        return false
    }
}
