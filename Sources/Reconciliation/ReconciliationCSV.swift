import Foundation

/// The CSV files of a run: every item, and the totals per currency and category. Deterministic: the same items
/// give the same bytes (no run id, no clock).
public enum ReconciliationCSV {
    static let itemColumns = ["line", "category", "side", "grain_key", "product_id", "country", "currency", "database_currency",
                              "report_units", "database_units", "report_gross_micros", "database_gross_micros", "variance_micros",
                              "store_fee_micros", "tax_micros", "net_micros", "prior_period_adjustment", "adjustment_period", "detail"]

    /// The items file.
    public static func items(_ items: [ReconciliationItem]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(items.count * 160 + 256)
        appendHeader(to: &bytes)
        for (index, item) in items.enumerated() { append(item, line: index + 1, to: &bytes) }
        return bytes
    }

    /// Appends the items file's header line.
    static func appendHeader(to bytes: inout [UInt8]) {
        bytes += Array(itemColumns.joined(separator: ",").utf8)
        bytes.append(0x0A)
    }

    /// Appends one item's line (`line` counts items from 1).
    static func append(_ item: ReconciliationItem, line: Int, to bytes: inout [UInt8]) {
        appendNumber(Int64(line), to: &bytes)
        for field in [item.category.rawValue, item.side, item.grainKey, item.productId, item.country, item.currency,
                      item.databaseCurrency ?? ""] {
            bytes.append(0x2C)
            append(field, to: &bytes)
        }
        for number in [item.reportUnits, item.databaseUnits, item.reportGross, item.databaseGross, item.variance, item.storeFee,
                       item.tax, item.net] {
            bytes.append(0x2C)
            appendNumber(number, to: &bytes)
        }
        for field in [item.priorPeriodAdjustment ? "true" : "false", item.adjustmentPeriod ?? "", item.detail] {
            bytes.append(0x2C)
            append(field, to: &bytes)
        }
        bytes.append(0x0A)
    }

    /// Appends `number` in decimal, as `String(number)` spells it, without building the string: the digits counted
    /// first, then written from the last.
    static func appendNumber(_ number: Int64, to bytes: inout [UInt8]) {
        var magnitude = number.magnitude
        var digits = 1
        var bound: UInt64 = 10
        while digits < 19, magnitude >= bound {
            digits += 1
            bound &*= 10
        }
        let length = digits + (number < 0 ? 1 : 0)
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &scratch) { raw in
            var at = length
            repeat {
                at -= 1
                raw[at] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30
                magnitude /= 10
            } while magnitude > 0
            if number < 0 { raw[0] = 0x2D }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[0..<length]))
        }
    }

    /// Appends `field`, quoted when it holds a comma, quote or line break.
    static func append(_ field: String, to bytes: inout [UInt8]) {
        var field = field
        field.withUTF8 { appendField(UnsafeRawBufferPointer($0), to: &bytes) }
    }

    /// Appends the UTF-8 bytes of a field, quoted when they hold a comma, quote or line break.
    static func appendField(_ utf8: UnsafeRawBufferPointer, to bytes: inout [UInt8]) {
        guard needsQuotes(utf8) else {
            bytes.append(contentsOf: utf8)
            return
        }
        bytes.append(0x22)
        for byte in utf8 {
            if byte == 0x22 { bytes.append(0x22) }
            bytes.append(byte)
        }
        bytes.append(0x22)
    }

    /// Whether `utf8` holds a comma, quote or line break: eight bytes at a time (a byte's high bit is set where it
    /// equals one of them, exact for the lowest such byte, which is all the question needs).
    @inline(__always)
    static func needsQuotes(_ utf8: UnsafeRawBufferPointer) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func equal(_ word: UInt64, _ byte: UInt64) -> UInt64 {
            let x = word ^ (ones &* byte)
            return (x &- ones) & ~x & high
        }
        var index = 0
        while index + 8 <= utf8.count {
            let word = UInt64(littleEndian: utf8.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            if equal(word, 0x2C) | equal(word, 0x22) | equal(word, 0x0A) | equal(word, 0x0D) != 0 { return true }
            index += 8
        }
        while index < utf8.count {
            let byte = utf8[index]
            if byte == 0x2C || byte == 0x22 || byte == 0x0A || byte == 0x0D { return true }
            index += 1
        }
        return false
    }

    /// The totals file: per currency one `total` line, then one line per category with its share of the variance.
    public static func totals(_ totals: ReconciliationTotals) -> [UInt8] {
        var text = "currency,line,items,report_gross_micros,database_gross_micros,variance_micros,store_fee_micros,tax_micros,net_micros\n"
        for currency in totals.currencies.keys.sorted() {
            guard let line = totals.currencies[currency] else { continue }
            let count = line.counts.values.reduce(0, +)
            text += [currency, "total", String(count), String(line.reportGross), String(line.databaseGross), String(line.variance),
                     String(line.storeFee), String(line.tax), String(line.net)].joined(separator: ",") + "\n"
            for category in ReconciliationCategory.allCases where line.counts[category] != nil || line.byCategory[category] != nil {
                text += [currency, category.rawValue, String(line.counts[category] ?? 0), "", "",
                         String(line.byCategory[category] ?? 0), "", "", ""].joined(separator: ",") + "\n"
            }
        }
        return Array(text.utf8)
    }
}
