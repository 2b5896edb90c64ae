/// A line item's `deferredItemReplacement`: the product that replaces it at the next renewal.
public struct DeferredItemReplacement: Sendable, Equatable, Decodable {
    public var productId: String?
}
