/// The `Transaction Type` of a Google earnings row. Unknown values are kept (`other`) and reported, not rejected.
public enum GoogleTransactionType: Sendable, Hashable {
    /// `Charge` (+).
    case charge
    /// `Google fee` (−).
    case googleFee
    /// `Tax` (−); an order can have several.
    case tax
    /// `Charge refund` (−).
    case chargeRefund
    /// `Google fee refund` (+).
    case googleFeeRefund
    /// `Tax refund` (+).
    case taxRefund
    /// `Charge rebill`.
    case chargeRebill
    /// `Google fee rebill`.
    case googleFeeRebill
    /// `Tax rebill`.
    case taxRebill
    /// Any other value, as written.
    case other(String)

    static let names: [(String, GoogleTransactionType)] = [
        ("Charge", .charge), ("Google fee", .googleFee), ("Tax", .tax), ("Charge refund", .chargeRefund),
        ("Google fee refund", .googleFeeRefund), ("Tax refund", .taxRefund), ("Charge rebill", .chargeRebill),
        ("Google fee rebill", .googleFeeRebill), ("Tax rebill", .taxRebill),
    ]

    /// The type named `raw` (exact spelling), or `.other(raw)`.
    public init(raw: String) {
        self = Self.names.first { $0.0 == raw }?.1 ?? .other(raw)
    }

    /// The spelling in the file.
    public var raw: String {
        if case .other(let raw) = self { return raw }
        return Self.names.first { $0.1 == self }?.0 ?? ""
    }

    /// Whether this is one of the refund types.
    public var isRefund: Bool { self == .chargeRefund || self == .googleFeeRefund || self == .taxRefund }
}

/// The `Refund Type` of a Google earnings row.
public enum GoogleRefundType: String, Sendable, Hashable {
    /// The whole charge was refunded.
    case full = "Full"
    /// Part of the charge was refunded.
    case partial = "Partial"
}
