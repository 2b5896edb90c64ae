import BillingCore
import CompactMemory
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
/// A unit both compact sides of the period hold alike (same currency, equal gross, a charge the database has at
/// least as often as the report): categorised `matched` with no detail of its own. The common case of a month,
/// written to the items CSV straight from the compact data (`ReconciliationCSV.appendMatched`) instead of as a
/// `ReconciliationItem`.
struct CompactMatch {
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
    /// The detail's separator between keys.
    private static let separators: StaticString = " "
    /// What stands for the hidden middle of a masked purchase token (`Redaction.mask`).
    private static let ellipsis: StaticString = "…"
    /// `Redaction.googlePrefix` as bytes.
    private static let googlePrefix = Array(Redaction.googlePrefix.utf8)

    /// Hands `key` to `body` in pieces, as `Redaction.transactionKey` shows it: a Google key's purchase token (ASCII)
    /// as its first and last four bytes around `…` (only `…` when 8 bytes or fewer), everything else as it is.
    static func maskedKeyPieces(_ key: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        let prefix = googlePrefix.count
        guard key.count >= prefix, googlePrefix.withUnsafeBytes({ ByteInterner.equal(UnsafeRawBufferPointer(rebasing: key[0..<prefix]), $0) })
        else { body(key); return }
        let tokenEnd = firstIndex(of: 0x3A, in: key, from: prefix) ?? key.count
        let token = tokenEnd - prefix
        let dots = UnsafeRawBufferPointer(start: ellipsis.utf8Start, count: ellipsis.utf8CodeUnitCount)
        body(UnsafeRawBufferPointer(rebasing: key[0..<prefix]))
        if token > 8 {
            body(UnsafeRawBufferPointer(rebasing: key[prefix..<(prefix + 4)]))
            body(dots)
            body(UnsafeRawBufferPointer(rebasing: key[(tokenEnd - 4)..<tokenEnd]))
        } else {
            body(dots)
        }
        body(UnsafeRawBufferPointer(rebasing: key[tokenEnd...]))
    }

    /// The offset of the first `byte` in `bytes` at or after `from`, or nil (`memchr`: a purchase token is long).
    static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard from < bytes.count, let base = bytes.baseAddress,
              let found = memchr(base + from, Int32(byte), bytes.count - from) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// Appends the line of a matched unit, the bytes `append(_:line:to:)` writes for its item: texts from the
    /// interners and the key arena, numbers formatted in place, straight into `line` (the chunk's bytes); the
    /// detail (the database keys) is built in `detail` first, to be quoted as a whole if it must.
    static func appendMatched(_ match: CompactMatch, line number: Int, order: UnsafeRawBufferPointer, report: UnitTexts,
                              database: UnitTexts, detail: inout [UInt8], to line: inout [UInt8]) {
        let r = match.report, d = match.database
        appendNumber(Int64(number), to: &line)
        line.append(contentsOf: match.side == 0 ? matchedCharge : matchedRefund)
        appendField(order, to: &line)
        line.append(0x2C)
        appendField(report.products.arena.bytes(r.product), to: &line)
        line.append(0x2C)
        appendField(report.countries.arena.bytes(r.country), to: &line)
        line.append(0x2C)
        appendField(report.currencies.arena.bytes(r.currency), to: &line)
        line.append(0x2C)
        appendField(database.currencies.arena.bytes(d.currency), to: &line)
        func amount(_ value: Int64) {
            line.append(0x2C)
            appendNumber(value, to: &line)
        }
        amount(Int64(r.count))
        amount(Int64(d.count))
        amount(r.gross)
        amount(d.gross)
        amount(r.gross - d.gross)
        amount(r.fee)
        amount(r.tax)
        amount(r.gross + r.fee + r.tax)
        line.append(contentsOf: noAdjustment)
        // The detail: the database keys, space-separated, empty ones left out; written straight into the line
        // unless a piece needs the field quoted, then built first and quoted.
        let keys = d.firstKey >= 0 ? d.firstKey..<(d.firstKey + d.count) : 0..<0
        let space = UnsafeRawBufferPointer(start: separators.utf8Start, count: 1)
        func forEachPiece(_ body: (UnsafeRawBufferPointer) -> Void) {
            var first = true
            for key in keys {
                database.keys.withBytes(key) { text in
                    guard !text.isEmpty else { return }
                    if !first { body(space) }
                    first = false
                    maskedKeyPieces(text, body)
                }
            }
        }
        var quoted = false
        forEachPiece { if needsQuotes($0) { quoted = true } }
        if quoted {
            detail.removeAll(keepingCapacity: true)
            forEachPiece { detail.append(contentsOf: $0) }
            detail.withUnsafeBytes { appendField($0, to: &line) }
        } else {
            forEachPiece { line.append(contentsOf: $0) }
        }
        line.append(0x0A)
    }
}
