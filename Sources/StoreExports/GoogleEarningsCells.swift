/// One Google earnings row as the scanner read it: the numbers, date, instant and kinds read, the texts lent as the
/// file's own UTF-8 bytes (valid only inside the call that receives them). The import stages it without a `String`
/// per cell; `row()` makes the owned `GoogleEarningsRow` of the same values.
public struct GoogleEarningsCells {
    /// The text columns, in `GoogleEarningsRow`'s order.
    public enum Text: Int, CaseIterable, Sendable {
        case orderID, taxType, transactionType, productTitle, productID, skuID, hardware, buyerCountry, buyerState
        case buyerPostalCode, buyerCurrency, merchantCurrency, basePlanID, offerID, groupID, firstUSD1MEligible
        case serviceFeePercent, feeDescription, promotionID, salesChannel
    }

    /// Line in the CSV (the first line of the record).
    public let line: Int
    /// `Transaction Date`.
    public let transactionDate: CalendarDate
    /// `Transaction Date` + `Transaction Time` as epoch seconds (UTC).
    public let transactionEpochSeconds: Int64
    /// The zone suffix as written, empty when absent.
    public let transactionZone: String
    /// `Transaction Type`.
    public let transactionType: GoogleTransactionType
    /// `Refund Type`, nil when empty.
    public let refundType: GoogleRefundType?
    /// `Product Type`.
    public let productType: Int64
    /// `Amount (Buyer Currency)`, signed micros.
    public let amountBuyerMicros: Int64
    /// `Currency Conversion Rate`, exactly as written.
    public let currencyConversionRate: ExactDecimal
    /// `Amount (Merchant Currency)`, signed micros.
    public let amountMerchantMicros: Int64
    /// The bytes the texts are lent from, and each text's range in them (`Text` order).
    let bytes: UnsafeRawBufferPointer
    let ranges: UnsafeBufferPointer<Range<Int>>

    /// The text of `column`: trimmed, UTF-8, lent.
    public func text(_ column: Text) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[ranges[column.rawValue]])
    }

    /// The owned row of the same values.
    public func row() -> GoogleEarningsRow {
        func s(_ column: Text) -> String { String(decoding: text(column), as: UTF8.self) }
        return GoogleEarningsRow(
            line: line, orderID: s(.orderID), transactionDate: transactionDate, transactionEpochSeconds: transactionEpochSeconds,
            transactionZone: transactionZone, taxType: s(.taxType), transactionType: transactionType, refundType: refundType,
            productTitle: s(.productTitle), productID: s(.productID), productType: productType, skuID: s(.skuID),
            hardware: s(.hardware), buyerCountry: s(.buyerCountry), buyerState: s(.buyerState),
            buyerPostalCode: s(.buyerPostalCode), buyerCurrency: s(.buyerCurrency), amountBuyerMicros: amountBuyerMicros,
            currencyConversionRate: currencyConversionRate, merchantCurrency: s(.merchantCurrency),
            amountMerchantMicros: amountMerchantMicros, basePlanID: s(.basePlanID), offerID: s(.offerID), groupID: s(.groupID),
            firstUSD1MEligible: s(.firstUSD1MEligible), serviceFeePercent: s(.serviceFeePercent),
            feeDescription: s(.feeDescription), promotionID: s(.promotionID), salesChannel: s(.salesChannel))
    }

    /// Lends the cells of an owned `row` (a row the field-by-field reader read) to `body`.
    static func lending<T>(_ row: GoogleEarningsRow, _ body: (GoogleEarningsCells) throws -> T) rethrows -> T {
        let texts = [row.orderID, row.taxType, row.transactionType.raw, row.productTitle, row.productID, row.skuID, row.hardware,
                     row.buyerCountry, row.buyerState, row.buyerPostalCode, row.buyerCurrency, row.merchantCurrency,
                     row.basePlanID, row.offerID, row.groupID, row.firstUSD1MEligible, row.serviceFeePercent,
                     row.feeDescription, row.promotionID, row.salesChannel]
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        for text in texts {
            let start = bytes.count
            bytes.append(contentsOf: text.utf8)
            ranges.append(start..<bytes.count)
        }
        return try bytes.withUnsafeBytes { bytes in
            try ranges.withUnsafeBufferPointer { ranges in
                try body(GoogleEarningsCells(
                    line: row.line, transactionDate: row.transactionDate, transactionEpochSeconds: row.transactionEpochSeconds,
                    transactionZone: row.transactionZone, transactionType: row.transactionType, refundType: row.refundType,
                    productType: row.productType, amountBuyerMicros: row.amountBuyerMicros,
                    currencyConversionRate: row.currencyConversionRate, amountMerchantMicros: row.amountMerchantMicros,
                    bytes: bytes, ranges: ranges))
            }
        }
    }
}
