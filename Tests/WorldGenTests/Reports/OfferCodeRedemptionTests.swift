import Foundation
import Testing
@testable import WorldGen

/// Apple offer-code redemptions: some Apple subscriptions start on a free week redeemed with an offer code (`offerType`
/// 3) instead of the introductory trial. The projection records a charge of 0 that is not a trial (no `trial_ends_at`,
/// no current price, so the first paid renewal is no price change); the Financial Report carries each as an `S` row
/// with Promo Code `CR` and 0.00 amounts, the Subscriber report names the offer.
@Suite struct OfferCodeRedemptionTests {
    /// Apple only, no test purchases and no faults.
    static let world: Result<(GeneratedWorld, StoreReportSet), Error> = Result {
        let world = try World.generate(WorldOptions(seed: 31, subscriptions: 1_500, months: 3, appleShare: 1, testShare: 0))
        return (world, try StoreReports.render(world, shares: .none))
    }

    @Test func notificationsAndHistoryCarryTheOfferCode() throws {
        let (world, _) = try Self.world.get()
        var redeemed = 0, trials = 0
        for subscription in world.subscriptions {
            let offers = subscription.appleNotifications.compactMap { $0.transactionInfo?["offerType"]?.int64Value }
            guard let first = subscription.rows.transactions.first?.record, first.amount?.micros == 0 else { continue }
            if offers.contains(3) {
                redeemed += 1
                #expect(!offers.contains(1), "\(subscription.rows.subscriptionId)")
                #expect(subscription.appleNotifications.contains { $0.transactionInfo?["offerIdentifier"]?.stringValue == "free-week-code" })
                #expect(subscription.rows.snapshot?.trialEndsAt == nil)
                #expect(ReportLedger.isOfferCode(first, subscription.rows.snapshot))
                // The first paid charge after the free week is not a price change (no current price during the offer).
                let records = subscription.rows.transactions.map(\.record)
                if let paid = records.first(where: { ($0.amount?.micros ?? 0) > 0 && $0.eventType != .priceChanged }) {
                    #expect(!records.contains { $0.eventType == .priceChanged && $0.effectiveAt == paid.effectiveAt },
                            "\(subscription.rows.subscriptionId)")
                }
            } else if offers.contains(1) {
                trials += 1
                #expect(subscription.rows.snapshot?.trialEndsAt != nil)
                #expect(!ReportLedger.isOfferCode(first, subscription.rows.snapshot))
            }
        }
        #expect(redeemed > 20 && trials > redeemed, "offer codes \(redeemed), trials \(trials)")
    }

    @Test func financialRowsWithPromoCodeCRAndSubscriberOfferName() throws {
        let (world, reports) = try Self.world.get()
        let offerCodes = ReportLedger.entries(world).filter(\.isOfferCode)
        #expect(!offerCodes.isEmpty && offerCodes.allSatisfy { $0.isApple && $0.kind == .charge && $0.amountMicros == 0 })
        var units: Int64 = 0
        for (path, bytes) in reports.files where path.hasPrefix("apple/finance/") && path.hasSuffix("_ZZ.txt") {
            let table = try ReportFileReader.appleFinancial(bytes).table
            for index in table.rows.indices {
                let row = table.row(index)
                guard row["Promo Code"] == "CR" else {
                    #expect(row["Promo Code"] == "" && row["Customer Price"] != "0.00", "\(path) \(row)")
                    continue
                }
                #expect(row["Sales or Return"] == "S" && row["Customer Price"] == "0.00" && row["Partner Share"] == "0.00"
                        && row["Extended Partner Share"] == "0.00", "\(path) \(row)")
                units += Int64(row["Quantity"] ?? "") ?? 0
            }
        }
        #expect(units == Int64(offerCodes.count))
        var named = 0
        for (path, bytes) in reports.files where path.hasPrefix("apple/sales/") {
            let table = try ReportFileReader.tabSeparated(bytes)
            for index in table.rows.indices where table.row(index)["Subscription Offer Name"] == "free-week-code" {
                #expect(table.row(index)["Customer Price"] == "0.00" && table.row(index)["Subscription Offer Type"] == "Free Trial")
                named += 1
            }
        }
        #expect(named == offerCodes.count)
    }
}
