import JobKit
import Postgres
import StoreExports

/// Reads a Google Play estimated sales report (`salesreport_YYYYMM.zip` or its CSV) once as a stream (`ReportStream`:
/// the zip's one member inflated a few chunks ahead, within `ArchiveLimits`), each record read by
/// `GoogleEstimatedSalesParser.scanner` and, when staging, copied into `google_estimated_sales_row` as soon as it is
/// read. Memory stays that of one chunk and one record whatever the month's size; a defect is reported after the
/// file's last byte, as the whole-file parser reports it, and the COPY (and the caller's transaction) then keeps nothing.
enum GoogleEstimatedSalesStaging {
    static let copy = """
        COPY google_estimated_sales_row (report_file_id, line, order_number, order_charged_date, order_charged_at,
        financial_status, device_model, product_title, product_id, product_type, sku_id, currency_of_sale,
        item_price_micros, taxes_collected_micros, charged_amount_micros, city_of_buyer, state_of_buyer,
        postal_code_of_buyer, country_of_buyer, base_plan_id, offer_id, group_id, promotion_id, extra) FROM STDIN
        """

    /// Copies every row of the estimated sales file at `path` under `fileID` while it is read; a defect of the file
    /// aborts the COPY and is thrown.
    static func stage(_ path: String, fileID: Int64, into database: PostgresConnection) throws -> StreamTally {
        let id = String(fileID)
        var tally: StreamTally?
        try database.copyIn(copy) { copy in
            tally = try read(path) { try copy.writeRow([id] + fields($0)) }
        }
        guard let tally else { preconditionFailure("the COPY body returned without reading") }
        return tally
    }

    /// Reads the estimated sales file at `path`, handing each row to `row`. `afterReading` runs between the read and
    /// the second look at the file (tests change the file there).
    static func read(_ path: String, afterReading: () throws -> Void = {},
                     row: (GoogleEstimatedSalesRow) throws -> Void) throws -> StreamTally {
        var scanner = GoogleEstimatedSalesParser.scanner(file: ReportLoader.fileName(path))
        let content = try ReportStream.read(path, afterReading: afterReading,
                                            label: { scanner = GoogleEstimatedSalesParser.scanner(file: $0) },
                                            position: { scanner.position }, chunk: { try scanner.feed($0, row) },
                                            finish: { try scanner.finish(row) })
        return StreamTally(sha256: content.sha256, rows: scanner.rows)
    }

    /// A row's staging fields after the file id, in the order of `copy`.
    static func fields(_ r: GoogleEstimatedSalesRow) -> [String?] {
        [String(r.line), r.orderNumber, r.orderChargedDate.description, StagingCopy.epochText(r.orderChargedEpochSeconds),
         r.financialStatus, r.deviceModel, r.productTitle, r.productID, r.productType, r.skuID, r.currencyOfSale,
         String(r.itemPriceMicros), String(r.taxesCollectedMicros), String(r.chargedAmountMicros), r.cityOfBuyer,
         r.stateOfBuyer, r.postalCodeOfBuyer, r.countryOfBuyer, r.basePlanID, r.offerID, r.groupID, r.promotionID,
         JSONLine.encode(r.extra)]
    }
}
