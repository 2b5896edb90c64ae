import Foundation
import JobKit
import StoreExports

/// `import-exports --show-order ORDER_ID`: prints the order's rows from every staged Google earnings file that holds
/// it, read back from the kept file (`StagedOrderRows`), as CSV: the file and line, then the row's columns an
/// on-call engineer compares with the reconciliation (amounts in micros, the instant in UTC). Imports nothing.
enum ShowOrder {
    /// The CSV header.
    static let header = "file,line,order_id,transaction_at,transaction_type,refund_type,product_title,product_id,sku_id,"
        + "buyer_country,buyer_currency,amount_buyer_micros,merchant_currency,amount_merchant_micros"

    /// Prints the rows of `order`; a file whose bytes are not kept (staged before migration 0033) is named in a
    /// warning. Throws `nothingDone` when no staged file holds the order.
    static func run(_ order: String, _ context: JobContext, output: (String) -> Void) throws {
        let found = try StagedOrderRows.find(order, in: context.database)
        guard !found.isEmpty else { throw JobError.nothingDone("no staged Google earnings file holds the order \(order)") }
        output(header)
        var shown = 0
        for file in found {
            if !file.kept {
                context.logger.warning("the file's bytes are not kept (staged before migration 0033): its facts only",
                                       ["file": file.fileName])
            }
            for row in file.rows {
                output(line(file.fileName, row))
                shown += 1
            }
        }
        context.setCount("files_found", found.count)
        context.setCount("rows_shown", shown)
    }

    /// One row as a CSV line.
    static func line(_ file: String, _ row: GoogleEarningsRow) -> String {
        [file, String(row.line), row.orderID, StagingCopy.epochText(row.transactionEpochSeconds), row.transactionType.raw,
         row.refundType?.rawValue ?? "", row.productTitle, row.productID, row.skuID, row.buyerCountry, row.buyerCurrency,
         String(row.amountBuyerMicros), row.merchantCurrency, String(row.amountMerchantMicros)].map(csv).joined(separator: ",")
    }

    /// A CSV field, quoted when it holds a comma, quote or line break.
    private static func csv(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
