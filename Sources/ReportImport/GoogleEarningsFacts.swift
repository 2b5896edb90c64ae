import CompactMemory
import Foundation
import Postgres
import StoreExports

/// One fact of a Google earnings file (`google_earnings_fact`, migration 0033): a run of consecutive rows of one order
/// and side, folded as `GoogleEarningsFold` says — gross, fee and tax summed, the charge count moved, the rows
/// counted, the first gross row's currency, the first non-empty product and country, the last Refund Type of a refund
/// run, the earliest instant.
public struct GoogleEarningsFact: Sendable, Equatable {
    /// The order ID's UTF-8 bytes.
    public var order: [UInt8] = []
    /// 0 the order's charge, 1 its refund.
    public var side: Int32 = 0
    /// The summed amount (buyer currency micros) of the gross rows (charges and their refunds).
    public var gross: Int64 = 0
    /// The summed amount of the Google fee rows.
    public var fee: Int64 = 0
    /// The summed amount of the tax rows.
    public var tax: Int64 = 0
    /// The run's change to its unit's charge (or refund) count.
    public var charges: Int32 = 0
    /// The earnings rows folded.
    public var rows: Int32 = 0
    /// The first gross row's Buyer Currency (UTF-8).
    public var currency: [UInt8] = []
    /// The first non-empty Buyer Country (UTF-8).
    public var country: [UInt8] = []
    /// The first non-empty Product id (UTF-8).
    public var product: [UInt8] = []
    /// The last Refund Type of a refund run.
    public var refundType: GoogleRefundType?
    /// The earliest instant (UTC epoch seconds).
    public var at: Int64 = .max
}

/// Folds a Google earnings file's rows, in file order, into its facts (`GoogleEarningsFact`), handing each on as its
/// run ends. Reconcile absorbs the facts into their units in (file, seq) order, so it sees what folding the rows
/// themselves would give. Memory is that of one run whatever the file's size.
public struct GoogleEarningsFacts {
    private var open = false
    private var run = GoogleEarningsFact()

    /// No fact yet.
    public init() {}

    /// Folds the next row of the file; hands on the run it ends, if any.
    public mutating func add(_ row: GoogleEarningsFields, _ ended: (GoogleEarningsFact) throws -> Void) rethrows {
        let (sideName, part, countDelta) = GoogleEarningsFold.classify(row.transactionType, refundType: row.refundType)
        let side: Int32 = sideName == "charge" ? 0 : 1
        if !open || side != run.side || !run.order.withUnsafeBytes({ ByteInterner.equal($0, row.orderID) }) {
            try finish(ended)
            open = true
            run.order.append(contentsOf: row.orderID)
            run.side = side
        }
        switch part {
        case .gross:
            run.gross += row.amountBuyerMicros
            run.charges += Int32(countDelta)
            if run.currency.isEmpty { run.currency.append(contentsOf: row.buyerCurrency) }
        case .fee: run.fee += row.amountBuyerMicros
        case .tax: run.tax += row.amountBuyerMicros
        }
        if run.product.isEmpty { run.product.append(contentsOf: row.productID) }
        if run.country.isEmpty { run.country.append(contentsOf: row.buyerCountry) }
        if side == 1, let type = row.refundType { run.refundType = type }
        run.at = min(run.at, row.transactionEpochSeconds)
        run.rows += 1
    }

    /// Hands on the open run, if any (at the end of the file, or when a row starts another run).
    public mutating func finish(_ ended: (GoogleEarningsFact) throws -> Void) rethrows {
        guard open else { return }
        try ended(run)
        open = false
        run.order.removeAll(keepingCapacity: true)
        run.currency.removeAll(keepingCapacity: true)
        run.country.removeAll(keepingCapacity: true)
        run.product.removeAll(keepingCapacity: true)
        (run.gross, run.fee, run.tax, run.charges, run.rows, run.refundType, run.at) = (0, 0, 0, 0, 0, nil, .max)
    }
}

extension GoogleEarningsFact {
    /// The `COPY` facts are written to (`write(file:seq:to:)`'s column order).
    static let copy = """
        COPY google_earnings_fact (report_file_id, seq, order_id, side, gross_micros, fee_micros, tax_micros, charge_count,
        row_count, currency, country, product_id, refund_type, first_at) FROM STDIN (FORMAT binary)
        """

    /// Encodes the fact as a binary `COPY` tuple, fact `seq` of the file `file`.
    func write(file: Int64, seq: Int32, to tuples: inout BinaryCopyTuples) {
        tuples.beginRow(fields: 14)
        tuples.int64(file)
        tuples.int32(seq)
        order.withUnsafeBytes { tuples.text($0) }
        tuples.int32(side)
        tuples.int64(gross)
        tuples.int64(fee)
        tuples.int64(tax)
        tuples.int32(charges)
        tuples.int32(rows)
        currency.withUnsafeBytes { tuples.text($0) }
        country.withUnsafeBytes { tuples.text($0) }
        product.withUnsafeBytes { tuples.text($0) }
        if let refundType { tuples.text(refundType.rawValue) } else { tuples.null() }
        tuples.timestamp(epochSeconds: at)
    }
}

extension GoogleEarningsCells {
    /// The fields the facts fold, lent from this row.
    var foldedFields: GoogleEarningsFields {
        GoogleEarningsFields(line: line, orderID: text(.orderID), transactionType: transactionType, refundType: refundType,
                             productID: text(.productID), buyerCountry: text(.buyerCountry), buyerCurrency: text(.buyerCurrency),
                             amountBuyerMicros: amountBuyerMicros, transactionEpochSeconds: transactionEpochSeconds)
    }
}
