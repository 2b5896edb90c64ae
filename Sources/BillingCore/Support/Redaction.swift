/// The one masker of store identifiers (purchase tokens, transaction and order IDs, notification ids) for
/// messages, logs and the files jobs write: every module that shows an identifier it must not show whole calls it.
public enum Redaction {
    /// The longest value a message quotes whole (`excerpt`).
    public static let excerptLimit = 32

    /// `first4…last4` for an identifier of 9 characters or more; a shorter one becomes `…` (its length is not shown).
    public static func mask(_ identifier: some StringProtocol) -> String {
        guard identifier.count > 8 else { return "…" }
        return String(identifier.prefix(4)) + "…" + String(identifier.suffix(4))
    }

    /// `mask` of a `String`, as the report files call it for every identifier cell: an ASCII identifier without a CR
    /// (one character per byte: a uuid, a store id) is cut by its bytes, without counting characters (a fifth of
    /// build-reports' own CPU when it wrote a million-row report through the generic path); any other by characters.
    public static func mask(_ identifier: String) -> String {
        let utf8 = identifier.utf8
        guard utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) else { return mask(identifier[...]) }
        guard utf8.count > 8 else { return "…" }
        return String(decoding: utf8.prefix(4), as: UTF8.self) + "…" + String(decoding: utf8.suffix(4), as: UTF8.self)
    }

    /// A stored transaction key as a written file may show it: a Google key (`GOOGLE:<purchase token>:<order>…`) with
    /// its purchase token masked and the rest whole (finance looks orders up in the console); any other key as it is.
    public static func transactionKey(_ key: String) -> String {
        guard key.hasPrefix(googlePrefix) else { return key }
        let rest = key.dropFirst(googlePrefix.count)
        guard let colon = rest.firstIndex(of: ":") else { return googlePrefix + mask(rest) }
        return googlePrefix + mask(rest[..<colon]) + String(rest[colon...])
    }

    /// The prefix of Google's transaction keys, whose next field is the purchase token.
    public static let googlePrefix = "GOOGLE:"

    /// A value from an input (a rejected cell, header or line) as an error message may quote it: whole up to
    /// `excerptLimit` characters, else masked with its length (`abcd…wxyz (812 characters)`); PEM armour
    /// (`-----BEGIN … KEY-----`) is always masked. So a misplaced file (a key, a token list) never has a secret, or
    /// the line announcing one, echoed into stdout, the log or `job_run.error`.
    public static func excerpt(_ text: some StringProtocol) -> String {
        guard text.count > excerptLimit || text.contains("-----") else { return String(text) }
        return mask(text) + " (\(text.count) characters)"
    }
}
