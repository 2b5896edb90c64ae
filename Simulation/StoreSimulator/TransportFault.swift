/// A misbehaviour the simulator can inject; the raw value is the `--faults` name.
public enum TransportFault: String, CaseIterable, Sendable, Hashable, Comparable {
    /// HTTP 500 with the store's internal-error body (Apple 5000000/5000001, Google INTERNAL); no state change.
    case serverError = "5xx"
    /// The real response (state changes applied), sent only after `FaultConfiguration.timeoutSeconds`.
    case timeout
    /// The connection closes without an answer; no state change.
    case connectionReset = "reset"
    /// The real response (state changes applied), cut off after half its body.
    case truncatedBody = "truncated"
    /// The real body labelled `Content-Type: text/html`.
    case wrongContentType = "content-type"
    /// Apple only: every JWS in the response has a corrupted signature.
    case invalidSignature = "signature"
    /// Apple only: every JWS in the response is signed over a payload naming another bundleId.
    case wrongBundleId = "bundle"
    /// Apple Get All Subscription Statuses only: the previous transaction is served as the latest.
    case staleState = "stale"
    /// A 429 storm: this request and every request to the same endpoint for `FaultConfiguration.stormSeconds`
    /// (wall clock) get the store's rate-limit answer; no state change.
    case rateLimitStorm = "429"
    /// The real response (state changes applied) with its body padded by trailing whitespace to
    /// `FaultConfiguration.oversizedBytes` (still valid JSON).
    case oversizedBody = "oversized"
    /// Apple only: every JWS in the response carries a `signedDate` after its certificates' validity ended, so the
    /// chain is not valid at the signing time (an expired signing certificate).
    case expiredSignature = "expired"

    /// Orders kinds by name, for stable output.
    public static func < (lhs: TransportFault, rhs: TransportFault) -> Bool { lhs.rawValue < rhs.rawValue }

    /// True for kinds that change signed payloads rather than the transport.
    public var altersPayload: Bool {
        self == .invalidSignature || self == .wrongBundleId || self == .staleState || self == .expiredSignature
    }

    /// Whether this kind can be injected into a response of `endpoint`.
    public func applies(to endpoint: SimulatorEndpoint) -> Bool {
        switch self {
        case .staleState: return endpoint == .appleSubscriptionStatuses
        case .invalidSignature, .wrongBundleId, .expiredSignature: return endpoint.signsPayloads
        default: return endpoint != .unknown
        }
    }

    /// Accepts the raw names and a few spellings: `500`, `connection-reset`, `truncate`, `wrong-content-type`,
    /// `invalid-signature`, `wrong-bundle`, `wrong-bundle-id`, `stale-state`, `storm`, `rate-limit-storm`, `oversized-body`,
    /// `expired-signature`.
    public init?(name: String) {
        let aliases: [String: TransportFault] = [
            "500": .serverError, "server-error": .serverError, "connection-reset": .connectionReset,
            "truncate": .truncatedBody, "truncated-body": .truncatedBody, "wrong-content-type": .wrongContentType,
            "invalid-signature": .invalidSignature, "wrong-bundle": .wrongBundleId, "wrong-bundle-id": .wrongBundleId,
            "stale-state": .staleState, "rate-limit-storm": .rateLimitStorm, "storm": .rateLimitStorm,
            "oversized-body": .oversizedBody, "expired-signature": .expiredSignature,
        ]
        guard let kind = TransportFault(rawValue: name) ?? aliases[name] else { return nil }
        self = kind
    }
}
