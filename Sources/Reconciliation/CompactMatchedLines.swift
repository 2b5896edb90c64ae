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
    /// interners and the key arena, numbers formatted in place. `scratch` holds the detail (the database keys).
    static func appendMatched(_ match: CompactMatch, line: Int, orders: ByteInterner, report: UnitTexts, database: UnitTexts,
                              scratch: inout [UInt8], to bytes: inout [UInt8]) {
        let r = match.report, d = match.database
        appendNumber(Int64(line), to: &bytes)
        bytes.append(contentsOf: match.side == 0 ? matchedCharge : matchedRefund)
        orders.withBytes(match.order) { appendField($0, to: &bytes) }
        bytes.append(0x2C)
        report.products.withBytes(r.product) { appendField($0, to: &bytes) }
        bytes.append(0x2C)
        report.countries.withBytes(r.country) { appendField($0, to: &bytes) }
        bytes.append(0x2C)
        report.currencies.withBytes(r.currency) { appendField($0, to: &bytes) }
        bytes.append(0x2C)
        database.currencies.withBytes(d.currency) { appendField($0, to: &bytes) }
        func number(_ value: Int64) {
            bytes.append(0x2C)
            appendNumber(value, to: &bytes)
        }
        number(Int64(r.count))
        number(Int64(d.count))
        number(r.gross)
        number(d.gross)
        number(r.gross - d.gross)
        number(r.fee)
        number(r.tax)
        number(r.gross + r.fee + r.tax)
        bytes.append(contentsOf: noAdjustment)
        // The detail: the database keys, each with its order when stored without it, space-separated, empty ones left out.
        scratch.removeAll(keepingCapacity: true)
        if d.firstKey >= 0 {
            for key in d.firstKey..<(d.firstKey + d.count) {
                database.keys.withBytes(key) { text in
                    guard !text.isEmpty || d.keyEndsWithOrder else { return }
                    if !scratch.isEmpty { scratch.append(0x20) }
                    scratch.append(contentsOf: text)
                    if d.keyEndsWithOrder {
                        scratch.append(0x3A)
                        orders.withBytes(match.order) { scratch.append(contentsOf: $0) }
                    }
                }
            }
        }
        scratch.withUnsafeBytes { appendField($0, to: &bytes) }
        bytes.append(0x0A)
    }
}
