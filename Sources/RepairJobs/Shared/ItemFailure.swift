import BillingCore

/// Why one item of a repair run (an inbound event, a subscription, a voided purchase) was not finished: the message
/// naming the item (identifiers masked) and the typed kind the run counts (`failed.<kind>`, `FailedItems`).
public struct ItemFailure: Error, Sendable, Equatable, CustomStringConvertible, KindedFailure {
    /// The message, naming the item.
    public let description: String
    /// The kind counted for it.
    public let failureKind: FailureKind

    /// A failure of `kind` described by `description`.
    public init(_ description: String, kind: FailureKind = .other) {
        self.description = description
        self.failureKind = kind
    }

    /// A failure caused by `error`: described `"<context>: <error>"`, of `error`'s own kind.
    public init(_ context: String, causedBy error: any Error) {
        self.init("\(context): \(error)", kind: FailureKind(of: error))
    }

    /// `error` as an item failure: itself when it is one, else its text and its own kind.
    public init(_ error: any Error) {
        self = (error as? ItemFailure) ?? ItemFailure("\(error)", kind: FailureKind(of: error))
    }
}
