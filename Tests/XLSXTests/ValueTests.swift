import Testing
@testable import XLSX

/// Exact money rounding, ISO dates as serials, currency places, column names.
@Suite struct ValueTests {
    @Test func moneyRoundsHalfToEvenOnceWithIntegers() throws {
        // (micros, places) → exact decimal, each worked by hand.
        let cases: [(Int64, Int, String)] = [
            (1_234_565_000, 2, "1234.56"), // …565 → 6 is even, stays
            (1_234_575_000, 2, "1234.58"), // …575 → 7 is odd, up
            (1_234_565_001, 2, "1234.57"), // above the half
            (-1_234_565_000, 2, "-1234.56"), (-1_234_575_000, 2, "-1234.58"),
            (-5_000, 2, "0.00"), (-10_000, 2, "-0.01"), (5_000, 2, "0.00"), (15_000, 2, "0.02"),
            (1_500_000, 0, "2"), (2_500_000, 0, "2"), (-2_500_000, 0, "-2"), (999_999, 0, "1"),
            (1_234_567, 3, "1.235"), (1_234_500, 3, "1.234"), (7, 6, "0.000007"), (0, 2, "0.00"),
            (Int64.max, 2, "9223372036854.78"), (Int64.min, 2, "-9223372036854.78"),
        ]
        for (micros, places, text) in cases {
            #expect(try DecimalAmount(micros: micros, places: places).exactDecimal == text, "\(micros) at \(places)")
        }
        #expect(throws: XLSXError.self) { try DecimalAmount(micros: 1, places: 7) }
    }

    /// The decimal text written byte by byte equals the text made from the units' digits padded and split at the point,
    /// for amounts of every length and sign at every number of places.
    @Test func theDecimalTextIsTheUnitsDigitsSplitAtThePoint() throws {
        var generator = SystemRandomNumberGenerator()
        var values: [Int64] = [0, 1, -1, 9, -9, 10, -10, 99, 100, 999_999, 1_000_000, Int64.max, Int64.min]
        for _ in 0..<2_000 { values.append(Int64.random(in: Int64.min...Int64.max, using: &generator) >> Int64.random(in: 0...62, using: &generator)) }
        for micros in values {
            for places in 0...6 {
                let amount = try DecimalAmount(micros: micros, places: places)
                let digits = String(amount.units.magnitude), sign = amount.units < 0 ? "-" : ""
                let padded = String(repeating: "0", count: max(0, places + 1 - digits.count)) + digits
                let expected = places == 0 ? sign + digits : sign + padded.dropLast(places) + "." + padded.suffix(places)
                #expect(amount.exactDecimal == expected, "\(micros) at \(places)")
            }
        }
    }

    @Test func theCellValueIsTheNearestDoubleToTheDecimal() throws {
        #expect(try DecimalAmount(micros: 1_234_565_000, places: 2).cellValue() == 1234.56)
        #expect(try DecimalAmount(micros: 100_000, places: 2).cellValue() == 0.1)
        #expect(try DecimalAmount(micros: -1_234_565_000, places: 3).cellValue() == -1234.565)
        #expect(try DecimalAmount(micros: 9_007_199_254_740_992, places: 6).cellValue() == 9_007_199_254.740992) // 2^53 units
        #expect(throws: XLSXError.self) { try DecimalAmount(micros: 9_007_199_254_740_993, places: 6).cellValue() }
    }

    @Test func daysBecomeExcelSerials() throws {
        #expect(try CalendarDay(iso: "1970-01-01").excelSerial == 25_569)
        #expect(try CalendarDay(iso: "2000-02-29").daysSinceEpoch == 11_016) // 30 years × 365 + 7 leap days + 31 + 28
        #expect(try CalendarDay(iso: "2024-12-31").excelSerial == 45_657) // 2025-01-01 is 20089 days after 1970 → 45658
        #expect(throws: XLSXError.self) { try CalendarDay(iso: "2025-02-29") }
        #expect(throws: XLSXError.self) { try CalendarDay(iso: "1900-01-01") }
        #expect(throws: XLSXError.self) { try CalendarDay(iso: "2025-1-01") }
    }

    @Test func columnsAndCellsHaveA1Names() {
        #expect([0, 25, 26, 51, 52, 701, 702, 16_383].map(CellReference.column) == ["A", "Z", "AA", "AZ", "BA", "ZZ", "AAA", "XFD"])
        #expect(CellReference.name(row: 0, column: 0) == "A1" && CellReference.name(row: 9, column: 2) == "C10")
    }

    @Test func textEscapingLeavesOrdinaryTextAlone() {
        #expect(ExcelText.escaped("plain text_with_underscores x") == "plain text_with_underscores x")
        #expect(ExcelText.escaped("_x0041_") == "_x005F_x0041_")
        #expect(ExcelText.escaped("a\0b") == "a_x0000_b")
        #expect(ExcelText.escaped("_xZZZZ_ and _x12_") == "_xZZZZ_ and _x12_")
    }
}
