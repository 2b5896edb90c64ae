import BillingCore

/// Reads Apple's payments summary CSV in all its known layouts (with `Exchange Rate` / `Proceeds`, with
/// `Balance`, the short layout of unpaid months, `Country or Region (Currency)`), quoted numbers with
/// thousands separators, lines ending with an empty column, and the non-strict bank total line.
public enum ApplePaymentsSummaryParser {
    static let columns: [ColumnSpec] = [
        .required("Region (Currency)", "Country or Region (Currency)"), .required("Units Sold"), .required("Earned"),
        .optional("Pre-Tax Subtotal"), .optional("Input Tax"), .optional("Adjustments"), .optional("Withholding Tax"),
        .required("Total Owed"), .optional("Balance"), .optional("Exchange Rate"), .optional("Proceeds"),
        .optional("Bank Account Currency"),
    ]

    /// Parses `bytes` read from `file`; returns every region row or throws naming line and column.
    public static func parse(_ bytes: [UInt8], file: String) throws -> ApplePaymentsSummary {
        let body = try ReportText.utf8Body(bytes, file: file)
        var reader = DelimitedReader(separator: UInt8(ascii: ","), quoting: true, limits: .apple)
        reader.lenientQuotes = true
        let records = try reader.records(body, file: file)
        guard let headerIndex = records.firstIndex(where: { isHeader($0) }) else {
            throw StoreReportError(file: file, line: 1, column: 1, reason: "no 'Region (Currency)' header line")
        }
        let preamble = records[..<headerIndex].filter { !$0.isBlank }
        if preamble.count > 1 {
            throw StoreReportError(file: file, line: preamble[1].line, column: 1, reason: "unexpected line before the header")
        }
        let title = preamble.first?.fields.first ?? ""
        let layout = try HeaderLayout(header: records[headerIndex], specs: columns, file: file, trailingEmpty: true)
        var rows: [ApplePaymentsRow] = []
        var index = headerIndex + 1
        while index < records.count, !records[index].isBlank {
            rows.append(try row(RowCells(records[index], layout, file: file, trailingEmpty: true)))
            index += 1
        }
        guard !rows.isEmpty else {
            throw StoreReportError(file: file, line: records[headerIndex].line + 1, column: 1, reason: "no region rows after the header")
        }
        let (bank, paidTo) = try ApplePaymentsTrailer.parse(records[index...], file: file)
        try ApplePaymentsTrailer.verify(rows: rows, bank: bank, layout: layout, file: file)
        return ApplePaymentsSummary(file: file, title: title, periodLabel: periodLabel(title), rows: rows,
                                    bankTotal: bank, paidTo: paidTo)
    }

    static func isHeader(_ record: DelimitedRecord) -> Bool {
        let first = record.fields.first?.trimmingSpaces.lowercased()
        return first == "region (currency)" || first == "country or region (currency)"
    }

    static func periodLabel(_ title: String) -> String? {
        guard let open = title.lastIndex(of: "("), let close = title.lastIndex(of: ")"), open < close else { return nil }
        return String(title[title.index(after: open)..<close])
    }

    static func row(_ cells: RowCells) throws -> ApplePaymentsRow {
        let name = "Region (Currency)"
        let regionCell = try cells.required(name)
        guard let open = regionCell.lastIndex(of: "("), regionCell.hasSuffix(")") else {
            throw cells.failure(name, "'\(Redaction.excerpt(regionCell))' is not 'Region (CUR)'")
        }
        let currency = String(regionCell[regionCell.index(after: open)...].dropLast())
        guard currency.utf8.count == 3, currency.utf8.allSatisfy({ $0 >= 65 && $0 <= 90 }) else {
            throw cells.failure(name, "'\(Redaction.excerpt(regionCell))' does not end with a currency code in parentheses")
        }
        func optional(_ column: String) throws -> Int64? {
            cells.layout.has(column) && !cells.text(column).isEmpty ? try cells.micros(column, style: .grouped) : nil
        }
        let bankCurrency = cells.text("Bank Account Currency")
        return ApplePaymentsRow(
            line: cells.record.line, region: regionCell[..<open].trimmingSpacesSubstring, currency: currency,
            unitsSold: try cells.integer("Units Sold", style: .grouped), earnedMicros: try cells.micros("Earned", style: .grouped),
            preTaxSubtotalMicros: try optional("Pre-Tax Subtotal"), inputTaxMicros: try optional("Input Tax"),
            adjustmentsMicros: try optional("Adjustments"), withholdingTaxMicros: try optional("Withholding Tax"),
            totalOwedMicros: try cells.micros("Total Owed", style: .grouped), balanceMicros: try optional("Balance"),
            exchangeRate: try cells.decimal("Exchange Rate", optional: true), proceedsMicros: try optional("Proceeds"),
            bankAccountCurrency: bankCurrency.isEmpty ? nil : try cells.currency("Bank Account Currency"))
    }
}

extension Substring {
    /// The text without leading and trailing spaces, as a String.
    var trimmingSpacesSubstring: String { String(self).trimmingSpaces }
}
