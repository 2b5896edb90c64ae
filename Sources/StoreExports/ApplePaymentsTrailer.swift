import BillingCore

/// The lines after the payments summary's region rows: blanks, the bank total (`"234.58" EUR` in one
/// cell) and `Paid to …`; and the checks that tie rows and bank total together.
enum ApplePaymentsTrailer {
    /// The bank total and paid-to text; any other non-blank line rejects the file.
    static func parse(_ records: ArraySlice<DelimitedRecord>, file: String) throws -> (ApplePaymentsBankTotal?, String?) {
        var bank: ApplePaymentsBankTotal?
        var paidTo: String?
        for record in records where !record.isBlank {
            let filled = record.fields.enumerated().filter { !$0.element.trimmingSpaces.isEmpty }
            guard filled.count == 1, let (offset, cell) = filled.first.map({ ($0.offset, $0.element.trimmingSpaces) }) else {
                throw StoreReportError(file: file, line: record.line, column: (filled.first?.offset ?? 0) + 1,
                                       reason: "unexpected line after the region rows")
            }
            let parts = cell.split(separator: " ")
            if parts.count == 2, parts[1].utf8.count == 3, parts[1].utf8.allSatisfy({ $0 >= 65 && $0 <= 90 }) {
                guard bank == nil else {
                    throw StoreReportError(file: file, line: record.line, column: offset + 1, reason: "a second bank total line")
                }
                guard case .success(let micros) = Micros.parse(parts[0], style: .grouped) else {
                    throw StoreReportError(file: file, line: record.line, column: offset + 1, reason: "bank total '\(Redaction.excerpt(cell))' is not an amount")
                }
                bank = ApplePaymentsBankTotal(line: record.line, column: offset + 1, amountMicros: micros, currency: String(parts[1]))
            } else if cell.hasPrefix("Paid to") || paidTo == nil && bank != nil {
                paidTo = cell
            } else {
                throw StoreReportError(file: file, line: record.line, column: offset + 1, reason: "unexpected line after the region rows: '\(Redaction.excerpt(cell))'")
            }
        }
        return (bank, paidTo)
    }

    /// Total Owed = (Pre-Tax Subtotal or Earned) + Input Tax + Adjustments + Withholding Tax on every row
    /// (layouts without `Balance`); the bank total equals the sum of Proceeds in the bank currency.
    static func verify(rows: [ApplePaymentsRow], bank: ApplePaymentsBankTotal?, layout: HeaderLayout, file: String) throws {
        let column = { (name: String) in (layout.positions[name] ?? 0) + 1 }
        if !layout.has("Balance") {
            for row in rows {
                let base = row.preTaxSubtotalMicros ?? row.earnedMicros
                let owed = base + (row.inputTaxMicros ?? 0) + (row.adjustmentsMicros ?? 0) + (row.withholdingTaxMicros ?? 0)
                guard owed == row.totalOwedMicros else {
                    throw StoreReportError(file: file, line: row.line, column: column("Total Owed"),
                                           reason: "Total Owed \(Micros.format(row.totalOwedMicros)) but subtotal, tax, adjustments and withholding give \(Micros.format(owed))")
                }
            }
        }
        guard let bank, layout.has("Proceeds") else { return }
        for row in rows where row.bankAccountCurrency != nil && row.bankAccountCurrency != bank.currency {
            throw StoreReportError(file: file, line: row.line, column: column("Bank Account Currency"),
                                   reason: "Bank Account Currency \(row.bankAccountCurrency ?? "") but the bank total is in \(bank.currency)")
        }
        let proceeds = rows.reduce(Int64(0)) { $0 &+ ($1.proceedsMicros ?? 0) }
        guard proceeds == bank.amountMicros else {
            throw StoreReportError(file: file, line: bank.line, column: bank.column,
                                   reason: "bank total \(Micros.format(bank.amountMicros)) \(bank.currency) but the rows' Proceeds sum to \(Micros.format(proceeds))")
        }
    }
}
