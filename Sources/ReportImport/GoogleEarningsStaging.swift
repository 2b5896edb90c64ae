import Postgres
import StoreExports

/// Stages a Google earnings file while it is read: each row, as soon as `GoogleEarningsReading` has read it, goes
/// into `google_earnings_row` through one binary `COPY` (the server parses no text). Nothing of the file is held.
enum GoogleEarningsStaging {
    static let copy = """
        COPY google_earnings_row (report_file_id, line, order_id, transaction_date, transaction_at, transaction_zone,
        tax_type, transaction_type, refund_type, product_title, product_id, product_type, sku_id, hardware, buyer_country,
        buyer_state, buyer_postal_code, buyer_currency, amount_buyer_micros, currency_conversion_rate, merchant_currency,
        amount_merchant_micros, base_plan_id, offer_id, group_id, first_usd_1m_eligible, service_fee_percent,
        fee_description, promotion_id, sales_channel) FROM STDIN (FORMAT binary)
        """

    /// Copies every row of the earnings file at `path` under `fileID`; a defect of the file aborts the COPY and is
    /// thrown (the caller's transaction then keeps nothing).
    static func stage(_ path: String, fileID: Int64, into database: PostgresConnection) throws -> GoogleEarningsTally {
        var tally: GoogleEarningsTally?
        try database.copyIn(copy) { copy in
            var writer = BinaryCopyWriter(copy)
            var rate = (value: ExactDecimal(unscaled: 0, scale: -1), field: [UInt8]())
            tally = try GoogleEarningsReading.read(path) { row in
                if row.currencyConversionRate != rate.value {
                    let value = row.currencyConversionRate
                    rate = (value, BinaryCopyWriter.numericField(unscaled: value.unscaled, scale: value.scale))
                }
                try rate.field.withUnsafeBytes { try write(row, fileID: fileID, rate: $0, to: &writer) }
            }
            try writer.finish()
        }
        guard let tally else { preconditionFailure("the COPY body returned without reading") }
        return tally
    }

    private static let buyerTexts: [GoogleEarningsCells.Text] = [.skuID, .hardware, .buyerCountry, .buyerState, .buyerPostalCode,
                                                                  .buyerCurrency]
    private static let trailingTexts: [GoogleEarningsCells.Text] = [.basePlanID, .offerID, .groupID, .firstUSD1MEligible,
                                                                     .serviceFeePercent, .feeDescription, .promotionID, .salesChannel]

    /// One row as a binary COPY tuple, in the column order of `copy` (`rate`: its rate's `numeric` field).
    static func write(_ r: GoogleEarningsCells, fileID: Int64, rate: UnsafeRawBufferPointer, to writer: inout BinaryCopyWriter) throws {
        try writer.beginRow(fields: 30)
        writer.int64(fileID)
        writer.int32(Int32(r.line))
        writer.text(r.text(.orderID))
        writer.date(daysSince1970: r.transactionDate.daysSince1970)
        writer.timestamp(epochSeconds: r.transactionEpochSeconds)
        writer.text(r.transactionZone)
        writer.text(r.text(.taxType))
        writer.text(r.text(.transactionType))
        if let refund = r.refundType { writer.text(refund.rawValue) } else { writer.null() }
        writer.text(r.text(.productTitle))
        writer.text(r.text(.productID))
        writer.int32(Int32(r.productType))
        for column in buyerTexts { writer.text(r.text(column)) }
        writer.int64(r.amountBuyerMicros)
        writer.text(rate)
        writer.text(r.text(.merchantCurrency))
        writer.int64(r.amountMerchantMicros)
        for column in trailingTexts { writer.text(r.text(column)) }
    }
}
