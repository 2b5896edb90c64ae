/// The `Transaction Type` of a Google earnings row. A value outside this list is refused at import, naming the file,
/// line, column and value: a type Google adds must be mapped before its rows count (docs/STORE_REPORTS.md lists them).
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

    static let names: [(String, GoogleTransactionType)] = [
        ("Charge", .charge), ("Google fee", .googleFee), ("Tax", .tax), ("Charge refund", .chargeRefund),
        ("Google fee refund", .googleFeeRefund), ("Tax refund", .taxRefund), ("Charge rebill", .chargeRebill),
        ("Google fee rebill", .googleFeeRebill), ("Tax rebill", .taxRebill),
    ]

    /// The type named `raw` (exact spelling); nil for a value Google does not document.
    public init?(raw: String) {
        guard let type = Self.names.first(where: { $0.0 == raw })?.1 else { return nil }
        self = type
    }

    /// Every accepted spelling, in the order of the list above (for messages and docs).
    public static var accepted: [String] { names.map(\.0) }

    /// The spelling in the file.
    public var raw: String { Self.names.first { $0.1 == self }?.0 ?? "" }

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
