import BillingCore
import Foundation

/// A payload whose signature, certificate chain, app and environment all checked out.
public struct VerifiedJWS<Value: Sendable>: Sendable {
    /// The exact payload JSON bytes that were signed.
    public let payload: Data
    /// The payload decoded as the caller asked.
    public let value: Value
    /// The payload's `signedDate` (an app transaction without one: its `receiptCreationDate`), the instant the
    /// chain was validated at.
    public let signedDate: Date
    /// The payload's environment (equal to the configured one).
    public let environment: AppleEnvironment
    /// The payload's bundle ID (equal to the configured one).
    public let bundleId: String
    /// The kind the payload was verified as.
    public let kind: ApplePayloadKind
}

extension VerifiedJWS: Equatable where Value: Equatable {}
