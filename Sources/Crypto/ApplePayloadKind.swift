/// The four kinds of App Store signed payload. Each carries its app fields in its own place, and each is
/// recognised by fields only it carries, so a payload of one kind never verifies as another.
///
/// | kind | app fields (bundleId, appAppleId, environment) | recognised by |
/// |---|---|---|
/// | notification | `data`, else `summary`, else `appData`, else `externalPurchaseToken` (environment: Sandbox when `externalPurchaseId` starts with "SANDBOX", else Production) | `notificationType` |
/// | transaction | top level | `transactionId` |
/// | renewal info | top level (environment only; Apple's renewal info names no app) | `autoRenewStatus` or `autoRenewProductId` |
/// | app transaction | top level; the environment is `receiptType` | `receiptType` or `receiptCreationDate` |
public enum ApplePayloadKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// An App Store Server Notification V2 `signedPayload` (`ResponseBodyV2DecodedPayload`).
    case notification
    /// A `signedTransactionInfo` (`JWSTransactionDecodedPayload`).
    case transaction
    /// A `signedRenewalInfo` (`JWSRenewalInfoDecodedPayload`).
    case renewalInfo = "renewal_info"
    /// A signed `AppTransaction` (e.g. `appData.signedAppTransactionInfo`).
    case appTransaction = "app_transaction"

    /// The snake_case name used in result codes.
    public var description: String { rawValue }
}
