import BillingCore

/// Hides store identifiers in explain's output: the subscription's own identifiers are masked unless `--raw-ids`;
/// identifiers of other subscriptions (e.g. the linked purchase token of an upgrade) are always masked.
/// Masking is BillingCore's `Redaction.mask` (first four … last four), the same as in the logs.
public struct IdentifierMask: Sendable {
    /// The subscription's own identifiers (uuid, originalTransactionId, transaction ids, purchase tokens, order ids).
    public let own: Set<String>
    /// Identifiers known to belong to other subscriptions.
    public let foreign: Set<String>
    /// True with `--raw-ids`: own identifiers are shown as stored.
    public let rawOwnIdentifiers: Bool

    /// A mask over `own` and `foreign` identifiers (empty strings are ignored).
    public init(own: Set<String>, foreign: Set<String>, rawOwnIdentifiers: Bool) {
        self.own = own.filter { !$0.isEmpty }
        self.foreign = foreign.subtracting(own).filter { !$0.isEmpty }
        self.rawOwnIdentifiers = rawOwnIdentifiers
    }

    /// One identifier as shown: a foreign one always masked, an own one masked unless raw, anything else masked too
    /// (an identifier explain cannot attribute is treated as someone else's).
    public func show(_ identifier: String) -> String {
        if own.contains(identifier) && rawOwnIdentifiers { return identifier }
        return Redaction.mask(identifier)
    }

    /// `text` with every known identifier inside it replaced as `show` would (longest first, so a token that
    /// contains another is replaced whole).
    public func scrub(_ text: String) -> String {
        var result = text
        let replacements = (rawOwnIdentifiers ? foreign : foreign.union(own)).sorted { $0.count > $1.count }
        for identifier in replacements where result.contains(identifier) {
            result = result.replacingOccurrences(of: identifier, with: Redaction.mask(identifier))
        }
        return result
    }
}
