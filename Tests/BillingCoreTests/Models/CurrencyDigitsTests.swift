import BillingCore
import Testing

/// The one ISO 4217 minor-units table the workbook, the CSVs and explain share.
struct CurrencyDigitsTests {
    @Test(arguments: [("USD", 2), ("EUR", 2), ("JPY", 0), ("KRW", 0), ("KWD", 3), ("BHD", 3), ("XYZ", 2)])
    func currenciesKeepTheirIsoMinorUnits(currency: String, places: Int) {
        #expect(CurrencyDigits.places(of: currency) == places)
    }
}
