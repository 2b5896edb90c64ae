import BillingCore
import Foundation

/// The voided purchase as stored in the history rows' payload: Google's field names, the millisecond times as
/// strings (as voidedpurchases.list sends them), and `voidedOrderId` beside `orderId`. Encoded with sorted keys, so
/// the same void always gives the same bytes; an encoding failure throws `VoidedPurchasePayloadError`, never `{}`.
struct VoidedPurchasePayload: Encodable, Equatable {
    let kind: String
    let orderId: String?
    let voidedOrderId: String?
    let purchaseTimeMillis: String?
    let voidedTimeMillis: String?
    let voidedSource: Int?
    let voidedReason: Int?
    let voidedQuantity: Int?

    /// The payload of `voided`.
    init(_ voided: VoidedPurchase) {
        kind = voided.kind ?? "androidpublisher#voidedPurchase"
        orderId = voided.orderId
        voidedOrderId = voided.orderId
        purchaseTimeMillis = voided.purchaseTimeMillis.map(String.init)
        voidedTimeMillis = voided.voidedTimeMillis.map(String.init)
        voidedSource = voided.voidedSource
        voidedReason = voided.voidedReason
        voidedQuantity = voided.voidedQuantity
    }

    /// The JSON bytes, keys sorted.
    func encoded() throws(VoidedPurchasePayloadError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(self)
        } catch {
            throw VoidedPurchasePayloadError(orderId: orderId, reason: String(describing: error))
        }
    }
}

/// A voided purchase whose payload could not be encoded; the void is reported as failed, not stored as `{}`.
struct VoidedPurchasePayloadError: Error, CustomStringConvertible {
    let orderId: String?
    let reason: String

    var description: String { "the payload of voided order \(orderId ?? "nil") could not be encoded: \(reason)" }
}
