import StoreExports

/// Which unit (an order's charge or refund) and which part (gross, fee, tax) each Google earnings row feeds, and how
/// it moves the unit's charge count. A rebill set — the order's rows reversed as `… refund` rows with an empty
/// Refund Type, then `Charge rebill`, `Google fee rebill`, `Tax rebill` — nets to zero on the charge unit in amounts
/// and in count, so a rebilled charge is still one charge. `GoogleEarningsFacts` folds the rows by it.
enum GoogleEarningsFold {
    /// The part of a unit a row feeds.
    enum Part { case gross, fee, tax }

    /// Side, part and count change of a row's Transaction Type and Refund Type. `Charge` and `Charge rebill` count
    /// one charge, a `Charge refund` with a Refund Type one refund, and a `Charge refund` without one (a rebill set's
    /// reversal) takes one charge back.
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
}
