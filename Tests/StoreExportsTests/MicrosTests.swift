import Testing
@testable import StoreExports

/// Decimal text to micros without Double: any number of decimals, signs, thousands separators, rejections.
@Suite struct MicrosTests {
    @Test(arguments: [
        ("0", Int64(0)), ("179", 179_000_000), ("-4.00", -4_000_000), ("22.96", 22_960_000), ("0.14937", 149_370),
        ("1.000000", 1_000_000), ("-0.70", -700_000), ("+3.5", 3_500_000), ("12.3456780", 12_345_678),
        ("9223372036854.775807", Int64.max), (".70", 700_000), (".7", 700_000), ("-.5", -500_000), (".99", 990_000),
    ])
    func plain(_ row: (String, Int64)) {
        #expect(Micros.parse(Substring(row.0)) == .success(row.1))
    }

    @Test func thousandsSeparatorsOnlyWhereAllowed() {
        #expect(Micros.parse("12,345.67", style: .grouped) == .success(12_345_670_000))
        #expect(Micros.parse("-1,234,567", style: .grouped) == .success(-1_234_567_000_000))
        #expect(Micros.parse("12,345.67") == .failure(.notANumber("12,345.67")))
        #expect(Micros.parse("1,23.00", style: .grouped) == .failure(.notANumber("1,23.00")))
        #expect(Micros.parse("1234,567", style: .grouped) == .failure(.notANumber("1234,567")))
    }

    @Test(arguments: ["", "abc", "1.2.3", "-", ".", "-.", "5.", "1e3", "12 34", "NaN", "١٢"])
    func notNumbers(_ text: String) {
        #expect(Micros.parse(Substring(text)) == .failure(.notANumber(text)))
    }

    @Test func precisionAndRange() {
        #expect(Micros.parse("0.0000001") == .failure(.finerThanMicros("0.0000001")))
        #expect(Micros.parse("9223372036855") == .failure(.tooLarge("9223372036855")))
        #expect(Micros.parse("99999999999999999999") == .failure(.tooLarge("99999999999999999999")))
        let rate = ExactDecimal.parse("0.123456789")
        #expect(rate == .success(ExactDecimal(unscaled: 123_456_789, scale: 9)))
        #expect((try? rate.get())?.description == "0.123456789")
        #expect(Micros.format(-1_500_000) == "-1.500000")
    }
}
