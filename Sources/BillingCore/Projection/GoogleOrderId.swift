/// A Google Play order ID: `GPA.xxxx-xxxx-xxxx-xxxxx` for the signup order, `GPA.…..N` for the renewal N (0-based).
struct GoogleOrderId: Equatable {
    /// The signup order's ID, shared by all of its renewals.
    let base: String
    /// The renewal index (`..N`), nil for the signup order.
    let renewal: Int?

    /// Parses an order ID; an ID whose `..` suffix is not a number is kept whole as a signup order.
    init?(_ text: String?) {
        guard let text, !text.isEmpty else { return nil }
        if let range = text.range(of: "..", options: .backwards), let index = Int(text[range.upperBound...]), index >= 0 {
            base = String(text[..<range.lowerBound])
            renewal = index
        } else {
            base = text
            renewal = nil
        }
    }

    init(base: String, renewal: Int?) {
        self.base = base
        self.renewal = renewal
    }

    /// The ID as Google writes it.
    var text: String { renewal.map { "\(base)..\($0)" } ?? base }

    /// True for a renewal order.
    var isRenewal: Bool { renewal != nil }

    /// The order before this one (renewal N-1, or the signup order for renewal 0); nil for the signup order.
    var previous: GoogleOrderId? {
        guard let renewal else { return nil }
        return GoogleOrderId(base: base, renewal: renewal == 0 ? nil : renewal - 1)
    }
}
