import Crypto
import Foundation
import TestCertificates

/// The app every generated transaction belongs to; `bench-jws verify` and the Python peer expect the same.
enum BenchApp {
    static let bundleId = "com.example.fitness"
    static let appAppleId: Int64 = 1_478_523_690
}

/// The JOSE header Apple puts on every signed payload.
struct SignedHeader: Encodable {
    let alg: String
    let x5c: [String]
}

/// One App Store transaction as Apple signs it (JWSTransactionDecodedPayload field names, milliseconds dates).
struct TransactionClaims: Encodable {
    let transactionId: String
    let originalTransactionId: String
    let webOrderLineItemId: String
    let bundleId: String
    let productId: String
    let subscriptionGroupIdentifier: String
    let purchaseDate: Int64
    let originalPurchaseDate: Int64
    let expiresDate: Int64
    let quantity: Int
    let type: String
    let appAccountToken: String
    let inAppOwnershipType: String
    let signedDate: Int64
    let environment: String
    let transactionReason: String
    let storefront: String
    let storefrontId: String
    let price: Int64
    let currency: String
    let appTransactionId: String
    let offerType: Int?
    let offerDiscountType: String?
}

/// Writes root.pem, root.der and `count` signed transactions (one JWS per line) into `folder`,
/// all signed by one leaf of one fresh `TestCertificateAuthority`, as Apple signs with one chain.
func generate(folder: String, count: Int) throws {
    let authority = try TestCertificateAuthority(name: "Bench")
    let base = URL(fileURLWithPath: folder, isDirectory: true)
    try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
    try authority.writeRootPEM(to: base.appendingPathComponent("root.pem").path)
    try authority.rootDER.write(to: base.appendingPathComponent("root.der"), options: .atomic)

    let header = SignedHeader(alg: "ES256", x5c: authority.x5c)
    let plans: [(product: String, months: Int64, price: Int64)] = [
        ("com.example.fitness.pro.monthly", 1, 9_990), ("com.example.fitness.pro.yearly", 12, 79_990),
        ("com.example.fitness.basic.monthly", 1, 4_990),
    ]
    let storefronts: [(code: String, id: String, currency: String)] = [
        ("USA", "143441", "USD"), ("DEU", "143443", "EUR"), ("GBR", "143444", "GBP"), ("JPN", "143462", "JPY"),
    ]
    let start: Int64 = 1_735_689_600_000  // 2025-01-01T00:00:00Z
    let day: Int64 = 86_400_000
    var lines = ""
    lines.reserveCapacity(count * 4_200)
    for n in 0..<count {
        // Subscriptions of up to 12 periods: the first transaction of each is the purchase, the rest renewals.
        let subscriber = n / 12
        let period = Int64(n % 12)
        let plan = plans[subscriber % plans.count]
        let store = storefronts[subscriber % storefronts.count]
        let original = start + Int64(subscriber % 300) * day + Int64(subscriber) * 7_919
        let purchase = original + period * plan.months * 30 * day
        let trial = period == 0 && subscriber % 5 == 0
        let claims = TransactionClaims(
            transactionId: String(2_000_000_000_000_000 + n), originalTransactionId: String(2_000_000_000_000_000 + subscriber * 12),
            webOrderLineItemId: String(2_000_000_100_000_000 + n), bundleId: BenchApp.bundleId, productId: plan.product,
            subscriptionGroupIdentifier: "21482456", purchaseDate: purchase, originalPurchaseDate: original,
            expiresDate: purchase + plan.months * 30 * day, quantity: 1, type: "Auto-Renewable Subscription",
            appAccountToken: deterministicUUID(subscriber), inAppOwnershipType: subscriber % 17 == 0 ? "FAMILY_SHARED" : "PURCHASED",
            signedDate: purchase + 1_234, environment: "Production", transactionReason: period == 0 ? "PURCHASE" : "RENEWAL",
            storefront: store.code, storefrontId: store.id, price: trial ? 0 : plan.price, currency: store.currency,
            appTransactionId: String(704_000_000_000_000_000 + subscriber),
            offerType: trial ? 1 : nil, offerDiscountType: trial ? "FREE_TRIAL" : nil)
        lines += try CompactJWS.encode(header: header, payload: claims, signer: authority.leafSigner)
        lines += "\n"
    }
    try Data(lines.utf8).write(to: base.appendingPathComponent("transactions.jws"), options: .atomic)
}

/// A stable UUID-shaped appAccountToken for subscriber `n`.
func deterministicUUID(_ n: Int) -> String {
    let hex = String(format: "%012x", n)
    return "6f1c2e3a-4b5d-4e6f-8a9b-\(hex)"
}
