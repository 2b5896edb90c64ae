import Foundation

/// One step of a subscription's timeline: when it happened, when the pipeline learned it, which table it comes from,
/// what it was, the money it moved (exact micros with currency) and its details, identifiers already masked.
public struct TimelineEntry: Sendable, Equatable {
    /// The store's instant of the step (effective_at, received_at, detected_at, …).
    public let at: Date
    /// When the row was recorded, where the table keeps it separately from `at`.
    public let recordedAt: Date?
    /// The table the row comes from (`billing_transaction`, `inbound_webhook_event`, …).
    public let source: String
    /// What happened: the event type, notification type, state or outcome.
    public let event: String
    /// The amount in micros, when the step moved or announced money.
    public let amountMicros: Int64?
    /// The ISO 4217 code of `amountMicros`.
    public let currency: String?
    /// Further facts as ordered name/value pairs.
    public let details: [(String, String)]

    /// An entry; `details` keep their order in the output.
    public init(at: Date, recordedAt: Date?, source: String, event: String, amountMicros: Int64? = nil,
                currency: String? = nil, details: [(String, String)] = []) {
        self.at = at
        self.recordedAt = recordedAt
        self.source = source
        self.event = event
        self.amountMicros = amountMicros
        self.currency = currency
        self.details = details
    }

    /// The amount as exact decimal text with its currency, e.g. `-9.990000 USD`; empty without an amount.
    public var amountText: String { ExplainFormat.money(amountMicros, currency) }

    public static func == (lhs: TimelineEntry, rhs: TimelineEntry) -> Bool {
        lhs.at == rhs.at && lhs.recordedAt == rhs.recordedAt && lhs.source == rhs.source && lhs.event == rhs.event
            && lhs.amountMicros == rhs.amountMicros && lhs.currency == rhs.currency
            && lhs.details.map { $0.0 + "=" + $0.1 } == rhs.details.map { $0.0 + "=" + $0.1 }
    }
}
