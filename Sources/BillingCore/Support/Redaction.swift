/// The one masker of store identifiers (purchase tokens, transaction and order IDs, notification ids) for
/// messages, logs and the files jobs write: every module that shows an identifier it must not show whole calls it.
public enum Redaction {
    /// `first4…last4` for an identifier of 9 characters or more; a shorter one becomes `…` (its length is not shown).
    public static func mask(_ identifier: some StringProtocol) -> String {
        guard identifier.count > 8 else { return "…" }
        return String(identifier.prefix(4)) + "…" + String(identifier.suffix(4))
    }
}
