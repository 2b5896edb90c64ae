/// An exact amount of money: integer micros (10^-6 of the currency unit) and an ISO 4217 code.
///
/// Never built from `Double`: Apple milliunits and Google `{units, nanos}` convert exactly or throw.
public struct Money: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The amount in micros of the currency unit (1 USD = 1_000_000).
    public let micros: Int64
    /// The ISO 4217 currency code, e.g. "USD".
    public let currencyCode: String

    /// Creates an amount from micros and a currency code.
    public init(micros: Int64, currencyCode: String) {
        self.micros = micros
        self.currencyCode = currencyCode
    }

    /// Converts an Apple `price` / `renewalPrice` in milliunits (×1000 → micros).
    public init(appleMilliunits: Int64, currencyCode: String) throws(MoneyError) {
        let (value, overflow) = appleMilliunits.multipliedReportingOverflow(by: 1_000)
        guard !overflow else { throw .overflow(String(appleMilliunits) + " milliunits") }
        self.init(micros: value, currencyCode: currencyCode)
    }

    /// Converts a Google Money `{units (int64 string), nanos}`; nanos must be a whole number of micros.
    public init(googleUnits units: String?, nanos: Int32?, currencyCode: String) throws(MoneyError) {
        let unitText = units ?? "0"
        guard let whole = Money.parseInt64(unitText) else { throw .invalidUnits(unitText) }
        let nano = nanos ?? 0
        guard nano > -1_000_000_000, nano < 1_000_000_000 else { throw .nanosOutOfRange(nano) }
        guard (whole <= 0 || nano >= 0), (whole >= 0 || nano <= 0) else { throw .signMismatch(units: unitText, nanos: nano) }
        guard nano % 1_000 == 0 else { throw .inexactNanos(nano) }
        let (scaled, overflowA) = whole.multipliedReportingOverflow(by: 1_000_000)
        let (sum, overflowB) = scaled.addingReportingOverflow(Int64(nano / 1_000))
        guard !overflowA, !overflowB else { throw .overflow(unitText + " units") }
        self.init(micros: sum, currencyCode: currencyCode)
    }

    /// The amount as a decimal string with six fractional digits and the currency, e.g. "9.990000 USD".
    public var description: String {
        let sign = micros < 0 ? "-" : ""
        let magnitude = micros.magnitude
        let fraction = String(magnitude % 1_000_000)
        let padded = String(repeating: "0", count: 6 - fraction.count) + fraction
        return "\(sign)\(magnitude / 1_000_000).\(padded) \(currencyCode)"
    }

    /// Parses an optionally signed base-10 Int64 with no other characters.
    static func parseInt64(_ text: String) -> Int64? {
        var body = Substring(text)
        if body.first == "-" || body.first == "+" { body = body.dropFirst() }
        guard !body.isEmpty, body.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(text.first == "+" ? String(text.dropFirst()) : text)
    }
}
