import SeededRandom

/// Deterministic identifiers: UUIDs, Apple transaction ids, Google tokens and order ids, all from the seed.
struct WorldIdentifiers: Sendable {
    /// What an identifier names (a salt for the hash).
    enum Kind: UInt64 {
        case plan = 1, mapping, user, account, accountToken, subscription, appleIdentity, googleToken
        case transaction, priceChange, entitlement, inboundEvent, notification
    }

    let seed: UInt64

    /// A version-4-shaped UUID (lowercase) for (kind, a, b).
    func uuid(_ kind: Kind, _ a: Int, _ b: Int = 0) -> String {
        let high = SplitMix64.hash(seed ^ SplitMix64.hash(kind.rawValue << 56 ^ UInt64(a) << 20 ^ UInt64(b)))
        let low = SplitMix64.hash(high ^ 0x5851_F42D_4C95_7F2D ^ UInt64(a) &* 0x2545_F491_4F6C_DD1D ^ UInt64(b))
        let hexHigh = hex(high), hexLow = hex(low)
        let versioned = "4" + hexHigh.dropFirst(13).prefix(3)
        let variant = String("89ab"[("89ab".index("89ab".startIndex, offsetBy: Int(low >> 62)))]) + hexLow.prefix(3)
        return "\(hexHigh.prefix(8))-\(hexHigh.dropFirst(8).prefix(4))-\(versioned)-\(variant)-\(hexLow.dropFirst(4).prefix(12))"
    }

    /// Apple transaction ids: 16 digits, unique per (subscription, ordinal).
    func appleTransactionId(subscription: Int, ordinal: Int) -> String {
        "2" + digits(seed % 1_000, 3) + digits(UInt64(subscription), 8) + digits(UInt64(ordinal), 4)
    }

    /// Apple webOrderLineItemId, unique per (subscription, ordinal).
    func webOrderLineItemId(subscription: Int, ordinal: Int) -> String {
        "5" + digits(seed % 1_000, 3) + digits(UInt64(subscription), 8) + digits(UInt64(ordinal), 4)
    }

    /// A Google purchase token: opaque letters, unique per (subscription, token ordinal).
    func purchaseToken(subscription: Int, ordinal: Int) -> String {
        var rng = SplitMix64(seed: seed, salt: 0x70_6B, index: UInt64(subscription) << 8 | UInt64(ordinal))
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz")
        let head = String((0..<24).map { _ in alphabet[Int(rng.next() % 26)] })
        let tail = String((0..<40).map { _ in alphabet[Int(rng.next() % 26)] })
        return "\(head).AO-J1O\(subscription)x\(ordinal)\(tail)"
    }

    /// A Google order id `GPA.dddd-dddd-dddd-ddddd`, unique per (subscription, token ordinal).
    func orderId(subscription: Int, ordinal: Int) -> String {
        "GPA.\(3_000 + ordinal)-\(digits(seed % 10_000, 4))-\(digits(UInt64(subscription / 100_000), 4))-\(digits(UInt64(subscription % 100_000), 5))"
    }

    /// A Pub/Sub messageId, unique per (subscription, event ordinal).
    func messageId(subscription: Int, ordinal: Int) -> String {
        String(10_000_000_000_000 + UInt64(subscription) * 10_000 + UInt64(ordinal))
    }

    private func hex(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }

    private func digits(_ value: UInt64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

extension WorldIdentifiers {
    /// A UUID derived from another UUID and a tag (ids of rows hanging off a subscription).
    static func derived(_ base: String, _ tag: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in (base + "/" + tag).utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return WorldIdentifiers(seed: SplitMix64.hash(hash)).uuid(.subscription, 0)
    }
}
