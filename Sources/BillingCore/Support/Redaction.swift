/// Masks store identifiers (tokens, transaction and order IDs) for messages and logs.
enum Redaction {
    /// Keeps the first and last four characters of long identifiers: `abcd…wxyz`.
    static func mask(_ identifier: String) -> String {
        guard identifier.count > 10 else { return String(repeating: "*", count: identifier.count) }
        return identifier.prefix(4) + "…" + identifier.suffix(4)
    }
}
