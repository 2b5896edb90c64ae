import Foundation
import JobKit
import StoreExports

/// The `show-order ORDER_ID` job: prints the order's rows from every staged Google earnings file that holds it, as
/// CSV — the file and line, then the columns an on-call engineer compares with the reconciliation (amounts in micros,
/// the instant in UTC) — read back from the kept file (`StagedOrderRows`), or for a file staged before migration 0033
/// from the rows that migration kept. A query tool, like `explain`: read-only, no job lock (it never holds up the
/// nightly `import-exports`), no `job_run` row, the summary on standard error; exit 3 when no staged file holds it.
public enum ShowOrder {
    /// The CSV header.
    public static let header = "file,line,order_id,transaction_at,transaction_type,refund_type,product_title,product_id,"
        + "sku_id,buyer_country,buyer_currency,amount_buyer_micros,merchant_currency,amount_merchant_micros"

    /// The job definition used by `Jobs/show-order`; `output` receives the CSV lines.
    public static func definition(output: @escaping @Sendable (String) -> Void = { print($0) }) -> JobDefinition {
        JobDefinition(name: "show-order", summary: "print a Google order's staged earnings rows",
                      options: [], positional: "order id (GPA.…)", queryTool: true) { context in
            guard context.arguments.positionals.count == 1, let order = context.arguments.positionals.first else {
                throw JobError.usage("show-order takes exactly one Google order id")
            }
            try context.database.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
            try run(order, context, output: output)
        }
    }

    /// Prints the rows of `order`. Throws `nothingDone` when no staged file holds the order.
    static func run(_ order: String, _ context: JobContext, output: (String) -> Void) throws {
        let found = try StagedOrderRows.find(order, in: context.database)
        guard !found.isEmpty else { throw JobError.nothingDone("no staged Google earnings file holds the order \(order)") }
        output(header)
        var shown = 0
        for file in found {
            for row in file.rows {
                output(([file.fileName] + row).map(csv).joined(separator: ","))
                shown += 1
            }
        }
        context.setCount("files_found", found.count)
        context.setCount("rows_shown", shown)
    }

    /// One parsed row's columns after the file name, as `header` names them.
    public static func columns(_ row: GoogleEarningsRow) -> [String] {
        [String(row.line), row.orderID, StagingCopy.epochText(row.transactionEpochSeconds), row.transactionType.raw,
         row.refundType?.rawValue ?? "", row.productTitle, row.productID, row.skuID, row.buyerCountry, row.buyerCurrency,
         String(row.amountBuyerMicros), row.merchantCurrency, String(row.amountMerchantMicros)]
    }

    /// A CSV field, quoted when it holds a comma, quote or line break.
    public static func csv(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
