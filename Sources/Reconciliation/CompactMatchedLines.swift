/// A unit both compact sides of the period hold alike (same currency, equal gross, a charge the database has at
/// least as often as the report): categorised `matched` with no detail of its own. The common case of a month,
/// written to the items CSV straight from the compact data (`ReconciliationCSV.appendMatched`) instead of as a
/// `ReconciliationItem`.
struct CompactMatch {
    var order: Int32
    /// 0 charge, 1 refund.
    var side: Int
    var report: CompactUnit
    var database: CompactUnit

    /// The summed stored row a matched unit adds to: its side, product, country and currency (report numbers).
    struct SumKey: Hashable {
        var side: Int32
        var product: Int32
        var country: Int32
        var currency: Int32
    }

    /// This unit's summed stored row.
    var sumKey: SumKey {
        SumKey(side: Int32(side), product: report.product, country: report.country, currency: report.currency)
    }
}

extension ReconciliationCSV {
    static let matchedCharge = Array(",matched,charge,".utf8)
    static let matchedRefund = Array(",matched,refund,".utf8)
    static let noAdjustment = Array(",false,,".utf8)

    /// Appends the line of a matched unit, the bytes `append(_:line:to:)` writes for its item: texts from the
    /// interners and the key arena, numbers formatted in place. The line is built in `scratch` and `detail` (the
    /// database keys) and appended to `bytes` at once.
    static func appendMatched(_ match: CompactMatch, line number: Int, orders: ByteInterner, report: UnitTexts, database: UnitTexts,
                              scratch line: LineScratch, detail: LineScratch, to bytes: inout [UInt8]) {
        let r = match.report, d = match.database
        line.clear()
        line.appendNumber(Int64(number))
        line.append(match.side == 0 ? matchedCharge : matchedRefund)
        orders.withBytes(match.order) { line.appendField($0) }
        line.append(0x2C)
        report.products.withBytes(r.product) { line.appendField($0) }
        line.append(0x2C)
        report.countries.withBytes(r.country) { line.appendField($0) }
        line.append(0x2C)
        report.currencies.withBytes(r.currency) { line.appendField($0) }
        line.append(0x2C)
        database.currencies.withBytes(d.currency) { line.appendField($0) }
        func amount(_ value: Int64) {
            line.append(0x2C)
            line.appendNumber(value)
        }
        amount(Int64(r.count))
        amount(Int64(d.count))
        amount(r.gross)
        amount(d.gross)
        amount(r.gross - d.gross)
        amount(r.fee)
        amount(r.tax)
        amount(r.gross + r.fee + r.tax)
        line.append(noAdjustment)
        // The detail: the database keys, each with its order when stored without it, space-separated, empty ones left out.
        detail.clear()
        if d.firstKey >= 0 {
            for key in d.firstKey..<(d.firstKey + d.count) {
                database.keys.withBytes(key) { text in
                    guard !text.isEmpty || d.keyEndsWithOrder else { return }
                    if detail.count > 0 { detail.append(0x20) }
                    detail.append(text)
                    if d.keyEndsWithOrder {
                        detail.append(0x3A)
                        orders.withBytes(match.order) { detail.append($0) }
                    }
                }
            }
        }
        line.appendField(detail.bytes)
        line.append(0x0A)
        bytes.append(contentsOf: line.bytes)
    }
}
