import StoreExports

/// One Google earnings row as the reconciliation reads it (amount in buyer currency micros, instant in UTC seconds).
public struct GoogleEarningsLine: Sendable, Hashable {
    public var order: String
    public var transactionType: String
    /// `Full`, `Partial` or empty (empty on charges and on the reversal rows of a rebill set).
    public var refundType: String
    public var productId: String
    public var country: String
    public var currency: String
    public var amountMicros: Int64
    public var at: Int64

    /// Creates a line.
    public init(order: String, transactionType: String, refundType: String = "", productId: String = "",
                country: String = "", currency: String, amountMicros: Int64, at: Int64) {
        self.order = order
        self.transactionType = transactionType
        self.refundType = refundType
        self.productId = productId
        self.country = country
        self.currency = currency
        self.amountMicros = amountMicros
        self.at = at
    }
}

/// Folds Google earnings rows into units: which unit (an order's charge or refund) and which part (gross, fee,
/// tax) each row feeds, and how it moves the unit's charge count. A rebill set — the order's rows reversed as
/// `… refund` rows with an empty Refund Type, then `Charge rebill`, `Google fee rebill`, `Tax rebill` — nets to
/// zero on the charge unit in amounts and in count, so a rebilled charge is still one charge.
public enum GoogleEarningsFold {
    /// The part of a unit a row feeds.
    enum Part { case gross, fee, tax }

    /// Adds `line` to its unit in `units`.
    public static func add(_ line: GoogleEarningsLine, to units: inout [UnitKey: UnitSide]) {
        let (side, part, countDelta) = classify(line.transactionType, refundType: line.refundType)
        let key = UnitKey(order: line.order, side: side)
        add(part: part, countDelta: countDelta, amount: line.amountMicros, currency: line.currency, productId: line.productId,
            country: line.country, at: line.at, to: &units[key, default: UnitSide()])
        if side == "refund", !line.refundType.isEmpty { units[key]?.refundType = line.refundType }
    }

    static func add(part: Part, countDelta: Int64, amount: Int64, currency: String, productId: String, country: String,
                    at: Int64, to unit: inout UnitSide) {
        switch part {
        case .gross:
            unit.gross += amount
            unit.count += countDelta
            if unit.currency.isEmpty { unit.currency = currency }
        case .fee: unit.fee += amount
        case .tax: unit.tax += amount
        }
        if unit.productId.isEmpty { unit.productId = productId }
        if unit.country.isEmpty { unit.country = country }
        unit.at = min(unit.at, at)
        unit.isTest = false
    }

    /// `classify` of a parsed type, without spelling it out again.
    static func classify(_ type: GoogleTransactionType, refundType: GoogleRefundType?) -> (String, Part, Int64) {
        let reversal = refundType == nil
        switch type {
        case .charge, .chargeRebill: return ("charge", .gross, 1)
        case .googleFee, .googleFeeRebill: return ("charge", .fee, 0)
        case .tax, .taxRebill: return ("charge", .tax, 0)
        case .chargeRefund: return reversal ? ("charge", .gross, -1) : ("refund", .gross, 1)
        case .googleFeeRefund: return reversal ? ("charge", .fee, 0) : ("refund", .fee, 0)
        case .taxRefund: return reversal ? ("charge", .tax, 0) : ("refund", .tax, 0)
        }
    }

    /// The units of `lines`.
    public static func units(_ lines: [GoogleEarningsLine]) -> [UnitKey: UnitSide] {
        var units: [UnitKey: UnitSide] = [:]
        for line in lines { add(line, to: &units) }
        return units
    }

    /// Side, part and count change of a Transaction Type. `Charge` and `Charge rebill` count one charge, a
    /// `Charge refund` with a Refund Type one refund, and a `Charge refund` without one (a rebill set's reversal)
    /// takes one charge back. Unknown types count as fees of the charge, so that they stay in the totals.
    static func classify(_ type: String, refundType: String) -> (String, Part, Int64) {
        if refundType.isEmpty, type.hasSuffix(" refund") {
            let (_, part, count) = classify(String(type.dropLast(" refund".count)), refundType: "")
            return ("charge", part, -count)
        }
        switch type {
        case "Charge", "Charge rebill": return ("charge", .gross, 1)
        case "Google fee", "Google fee rebill": return ("charge", .fee, 0)
        case "Tax", "Tax rebill": return ("charge", .tax, 0)
        case "Charge refund": return ("refund", .gross, 1)
        case "Google fee refund": return ("refund", .fee, 0)
        case "Tax refund": return ("refund", .tax, 0)
        default: return ("charge", .fee, 0)
        }
    }
}
