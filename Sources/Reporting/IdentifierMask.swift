/// Masks an identifier for a report the way the logs do: the first four and last four characters around an
/// ellipsis, so rows stay recognisable to someone who holds the full identifier but do not disclose it.
public enum IdentifierMask {
    /// `abcd…wxyz` for 9 characters or more; shorter values become `…`.
    public static func mask(_ identifier: String) -> String {
        let characters = Array(identifier)
        guard characters.count > 8 else { return "…" }
        return String(characters.prefix(4)) + "…" + String(characters.suffix(4))
    }
}
