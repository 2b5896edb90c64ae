/// ISO 4217 minor units: how many decimal places an amount in a currency is shown with (the workbook, the CSVs and
/// explain share this one table).
public enum CurrencyDigits {
    /// Currencies of ISO 4217 with no minor unit.
    static let zero: Set<String> = ["BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI",
                                    "VND", "VUV", "XAF", "XOF", "XPF"]
    /// Currencies of ISO 4217 with three decimal places.
    static let three: Set<String> = ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]

    /// The decimal places of `currency` (an ISO 4217 code): 0, 3 or, for every other currency, 2.
    public static func places(of currency: String) -> Int {
        if zero.contains(currency) { return 0 }
        if three.contains(currency) { return 3 }
        return 2
    }
}
