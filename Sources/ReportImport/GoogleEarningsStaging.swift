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
            tally = try GoogleEarningsReading.read(path) { row in try write(row, fileID: fileID, to: &writer) }
            try writer.finish()
        }
        guard let tally else { preconditionFailure("the COPY body returned without reading") }
        return tally
    }

    /// One row as a binary COPY tuple, in the column order of `copy`.
    static func write(_ r: GoogleEarningsRow, fileID: Int64, to writer: inout BinaryCopyWriter) throws {
        try writer.beginRow(fields: 30)
        writer.int64(fileID)
        writer.int32(Int32(r.line))
        writer.text(r.orderID)
        writer.date(daysSince1970: r.transactionDate.daysSince1970)
        writer.timestamp(epochSeconds: r.transactionEpochSeconds)
        writer.text(r.transactionZone)
        writer.text(r.taxType)
        writer.text(r.transactionType.raw)
        if let refund = r.refundType { writer.text(refund.rawValue) } else { writer.null() }
        writer.text(r.productTitle)
        writer.text(r.productID)
        writer.int32(Int32(r.productType))
        writer.text(r.skuID)
        writer.text(r.hardware)
        writer.text(r.buyerCountry)
        writer.text(r.buyerState)
        writer.text(r.buyerPostalCode)
        writer.text(r.buyerCurrency)
        writer.int64(r.amountBuyerMicros)
        writer.numeric(unscaled: r.currencyConversionRate.unscaled, scale: r.currencyConversionRate.scale)
        writer.text(r.merchantCurrency)
        writer.int64(r.amountMerchantMicros)
        writer.text(r.basePlanID)
        writer.text(r.offerID)
        writer.text(r.groupID)
        writer.text(r.firstUSD1MEligible)
        writer.text(r.serviceFeePercent)
        writer.text(r.feeDescription)
        writer.text(r.promotionID)
        writer.text(r.salesChannel)
    }
}
