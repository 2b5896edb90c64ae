import Crypto

/// One JSON line (compact, keys sorted, LF-terminated) per truth item: the lines of the truth folder's `.jsonl` files.
public enum StoreTruthLines {
    /// Appends the line of an Apple subscription.
    public static func append(_ item: AppleSubscriptionTruth, to out: inout [UInt8]) {
        JSONBytes.appendObject([("originalTransactionId", .string(item.originalTransactionId)), ("renewalInfo", item.renewalInfo),
                                ("status", .integer(Int64(item.status))),
                                ("subscriptionGroupIdentifier", .string(item.subscriptionGroupIdentifier)),
                                ("transactions", .array(item.transactions))], to: &out)
        out.append(10)
    }

    /// Appends the line of an Apple notification.
    public static func append(_ item: AppleNotificationTruth, to out: inout [UInt8]) {
        JSONBytes.appendObject([("payload", item.payload), ("renewalInfo", item.renewalInfo), ("sendAttempts", .array(item.sendAttempts)),
                                ("transactionInfo", item.transactionInfo)], to: &out)
        out.append(10)
    }

    /// Appends the line of a Google purchase token.
    public static func append(_ item: GoogleSubscriptionTruth, to out: inout [UInt8]) {
        var fields: [(String, JSONValue?)] = item.orders.isEmpty ? [] : [("orders", .array(item.orders))]
        fields += [("purchase", item.purchase), ("purchaseToken", .string(item.purchaseToken)), ("queryable", .bool(item.queryable))]
        JSONBytes.appendObject(fields, to: &out)
        out.append(10)
    }

    /// Appends the line of a voided purchase.
    public static func append(_ item: JSONValue, to out: inout [UInt8]) {
        JSONBytes.append(item, to: &out)
        out.append(10)
    }
}
