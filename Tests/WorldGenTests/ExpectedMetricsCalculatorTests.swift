import Foundation
import Testing
@testable import WorldGen

/// Hand-computed cases for the expected-metrics calculator (one story each, the numbers worked out in comments).
@Suite struct ExpectedMetricsCalculatorTests {
    /// As of 2026-04-15; months January to April 2026; plans 0 weekly, 1 monthly, 2 yearly; markets 0 USA/USD, 1 DEU/EUR.
    static let asOfMs = day(2026, 4, 15)
    static let catalogue = WorldCatalogue.standard(seed: 1, asOfMs: asOfMs, months: 3)

    static func day(_ year: Int64, _ month: Int64, _ day: Int64) -> Int64 { WorldClock.days(year: year, month: month, day: day) * WorldClock.day }

    static func step(_ at: Int64, _ step: StoryStep, plan: Int = 1, price: Int64 = 9_990_000, end: Int64 = 0) -> TimedStep {
        TimedStep(atMs: at, step: step, plan: plan, priceMicros: price, periodEndMs: end)
    }

    /// Rows of the finished metrics for stories (EUR at 1.10 in January, 1.20 from February, unless given).
    static func rows(_ stories: [Story], eur: [Int64] = [11_000_000_000, 12_000_000_000, 12_000_000_000, 12_000_000_000, 12_000_000_000])
        -> [String: ExpectedMetricsRow] {
        let months = WorldMonth.range(WorldMonth(containing: day(2025, 12, 1)), WorldMonth(containing: asOfMs))
        let usd = months.map { _ in WorldFXRates.scale }
        let fx = WorldFXRates(months: months, rates: ["USD": usd, "EUR": [11_000_000_000] + eur])
        var builder = ExpectedMetricsBuilder(catalogue: catalogue, asOfMs: asOfMs, months: Array(months.dropFirst()), fx: fx)
        for (index, story) in stories.enumerated() { builder.add(story, subscriptionId: "s\(index)") }
        let metrics = builder.finish(seed: 1)
        for row in metrics.rows { #expect(row.bridgeHolds, "\(row.month) \(row.provider) \(row.currency) \(row.view)") }
        return Dictionary(uniqueKeysWithValues: metrics.rows.map { ("\($0.month) \($0.provider) \($0.currency) \($0.view)", $0) })
    }

    static func story(apple: Bool = false, market: Int = 0, _ steps: [TimedStep]) -> Story {
        Story(index: 0, isApple: apple, market: market, isTest: false, familyShared: false, steps: steps)
    }

    @Test func trialIsNotMRRGraceIsHoldIsNot() throws {
        // Trial from 20 Jan (0 at the January snapshot), paid 9.99 from 5 Feb, grace from 28 Mar (still 9.99 at the
        // March snapshot), hold from 5 Apr (0 at the as-of snapshot, 15 Apr): churn of 9.99 in April.
        let rows = Self.rows([Self.story([
            Self.step(Self.day(2026, 1, 20), .purchase(trial: true), price: 0, end: Self.day(2026, 2, 5)),
            Self.step(Self.day(2026, 2, 5), .renew, end: Self.day(2026, 3, 28)),
            Self.step(Self.day(2026, 3, 28), .enterGrace(graceEndMs: Self.day(2026, 4, 5)), end: Self.day(2026, 3, 28)),
            Self.step(Self.day(2026, 4, 5), .enterHold, end: Self.day(2026, 3, 28)),
        ])])
        #expect(rows["2026-01 GOOGLE USD local"] == nil)
        let february = try #require(rows["2026-02 GOOGLE USD local"])
        #expect((february.mrrMicros, february.payingSubscribers, february.newMicros, february.newCount) == (9_990_000, 1, 9_990_000, 1))
        let march = try #require(rows["2026-03 GOOGLE USD local"])
        #expect((march.mrrMicros, march.startMrrMicros, march.payingSubscribers) == (9_990_000, 9_990_000, 1))
        #expect((march.graceEntered, march.holdEntered, march.graceRecovered, march.billingOpen) == (1, 1, 0, 1))
        let april = try #require(rows["2026-04 GOOGLE USD local"])
        #expect((april.mrrMicros, april.churnMicros, april.churnCount, april.payingSubscribers) == (0, 9_990_000, 1, 0))
        #expect(april.snapshotAt == "2026-04-15T00:00:00.000Z")
        #expect(rows["2026-04 GOOGLE USD reporting"]?.churnMicros == 9_990_000)
    }

    @Test func aTrialThatFailsIntoGraceAndRecoversIsNewAtItsFirstPayment() throws {
        // Decision 5 (docs/METRICS.md, "Never paid"): trial from 20 Jan; the conversion on 20 Feb fails into grace
        // (9.99 retried, grace until 8 Mar), hold from 8 Mar, recovered on 10 Apr. Never paid before the recovery, so
        // 0 at the Feb 28 and Mar 31 snapshots; at the as-of (15 Apr) 9.99, the first paid charge: new, not reactivation.
        let rows = Self.rows([Self.story([
            Self.step(Self.day(2026, 1, 20), .purchase(trial: true), price: 0, end: Self.day(2026, 2, 20)),
            Self.step(Self.day(2026, 2, 20), .enterGrace(graceEndMs: Self.day(2026, 3, 8)), end: Self.day(2026, 2, 20)),
            Self.step(Self.day(2026, 3, 8), .enterHold, end: Self.day(2026, 2, 20)),
            Self.step(Self.day(2026, 4, 10), .recover, end: Self.day(2026, 5, 10)),
        ])])
        #expect(rows["2026-01 GOOGLE USD local"] == nil)
        let february = try #require(rows["2026-02 GOOGLE USD local"])
        #expect((february.mrrMicros, february.newMicros, february.payingSubscribers) == (0, 0, 0))
        #expect((february.graceEntered, february.holdEntered, february.holdRecovered, february.billingOpen) == (1, 1, 1, 0))
        #expect(rows["2026-03 GOOGLE USD local"] == nil)
        let april = try #require(rows["2026-04 GOOGLE USD local"])
        #expect((april.mrrMicros, april.startMrrMicros, april.newMicros, april.newCount, april.reactivationMicros)
                == (9_990_000, 0, 9_990_000, 1, 0))
    }

    @Test func yearlyIsATwelfthWeeklyIsFiftyTwoTwelfthsRoundedOncePerCell() throws {
        // Yearly 59.99 EUR → 59 990 000 / 12 = 4 999 166.67; weekly 2.99 EUR → 2 990 000 × 52 / 12 = 12 956 666.67.
        // The cell sums exactly: (59 990 000 + 155 480 000) / 12 = 17 955 833.33 → 17 955 833 (rounding each first would give …834).
        let rows = Self.rows([
            Self.story(apple: true, market: 1, [Self.step(Self.day(2026, 1, 10), .purchase(trial: false), plan: 2, price: 59_990_000,
                                                          end: Self.day(2027, 1, 10))]),
            Self.story(apple: true, market: 1, [Self.step(Self.day(2026, 1, 12), .purchase(trial: false), plan: 0, price: 2_990_000,
                                                          end: Self.day(2026, 1, 19))]),
        ])
        let january = try #require(rows["2026-01 APPLE EUR local"])
        #expect((january.mrrMicros, january.payingSubscribers, january.newCount) == (17_955_833, 2, 2))
        // In USD at 1.10: 215 470 000 × 1.1 / 12 = 19 751 416.67 → 19 751 417.
        #expect(rows["2026-01 APPLE USD reporting"]?.mrrMicros == 19_751_417)
    }

    @Test func upgradeMidMonthIsExpansionAndALowerMonthlyValueIsContraction() throws {
        // Monthly 9.99 USD, then on 20 Feb an upgrade to a yearly at 149.99 (12 499 166.67 a month): expansion
        // 2 509 166.67 → 2 509 167, end 12 499 167. A second account moves to the standard yearly 59.99 (4 999 166.67):
        // contraction 4 990 833.33 → 4 990 833. Cell: end (149 990 000 + 59 990 000)/12 = 17 498 333.33 → 17 498 333.
        let rows = Self.rows([
            Self.story([Self.step(Self.day(2026, 1, 5), .purchase(trial: false), end: Self.day(2026, 2, 5)),
                        Self.step(Self.day(2026, 2, 20), .upgrade(plan: 2), plan: 2, price: 149_990_000, end: Self.day(2027, 2, 20))]),
            Self.story([Self.step(Self.day(2026, 1, 6), .purchase(trial: false), end: Self.day(2026, 2, 6)),
                        Self.step(Self.day(2026, 2, 21), .upgrade(plan: 2), plan: 2, price: 59_990_000, end: Self.day(2027, 2, 21))]),
        ])
        let february = try #require(rows["2026-02 GOOGLE USD local"])
        #expect(february.startMrrMicros == 19_980_000)
        #expect((february.expansionMicros, february.expansionCount) == (2_509_167, 1))
        #expect((february.contractionMicros, february.contractionCount) == (4_990_833, 1))
        #expect(february.mrrMicros == 17_498_333)
        // 17 498 333 − 19 980 000 − 2 509 167 + 4 990 833 = −1: the rounding residue lands in fx.
        #expect(february.fxMicros == -1)
    }

    @Test func returnAfterChurnIsReactivation() throws {
        // Paid in January, expired 5 Feb (churn in February), bought again 10 Mar (reactivation, not new).
        let rows = Self.rows([Self.story(apple: true, [
            Self.step(Self.day(2026, 1, 5), .purchase(trial: false), end: Self.day(2026, 2, 5)),
            Self.step(Self.day(2026, 2, 5), .expire(reason: .voluntary), end: Self.day(2026, 2, 5)),
            Self.step(Self.day(2026, 3, 10), .purchase(trial: false), end: Self.day(2026, 4, 10)),
        ])])
        #expect(rows["2026-01 APPLE USD local"]?.newMicros == 9_990_000)
        #expect(rows["2026-02 APPLE USD local"]?.churnMicros == 9_990_000)
        let march = try #require(rows["2026-03 APPLE USD local"])
        #expect((march.reactivationMicros, march.reactivationCount, march.newMicros, march.newCount) == (9_990_000, 1, 0, 0))
    }

    @Test func refundOfLastMonthsChargeLandsInBothViews() throws {
        // Charged 9.99 on 20 Jan, refunded on 3 Feb: by charge month in January, by refund month in February.
        let rows = Self.rows([Self.story([
            Self.step(Self.day(2026, 1, 20), .purchase(trial: false), end: Self.day(2026, 2, 20)),
            Self.step(Self.day(2026, 2, 3), .refund(chargeback: false), end: Self.day(2026, 2, 20)),
        ])])
        let january = try #require(rows["2026-01 GOOGLE USD local"])
        #expect((january.refundsByChargeMonthCount, january.refundsByChargeMonthMicros) == (1, 9_990_000))
        #expect((january.refundsByRefundMonthCount, january.refundsByRefundMonthMicros) == (0, 0))
        let february = try #require(rows["2026-02 GOOGLE USD local"])
        #expect((february.refundsByRefundMonthCount, february.refundsByRefundMonthMicros, february.chargebacksCount) == (1, 9_990_000, 0))
        #expect((february.refundsByChargeMonthCount, february.churnMicros) == (0, 9_990_000))
    }

    @Test func fxBucketIsolatesARateChange() throws {
        // 9.99 EUR paid in January and renewed at the same price: nothing moves in EUR. In USD the January end is
        // 9 990 000 × 1.10 = 10 989 000, the February end 9 990 000 × 1.20 = 11 988 000: fx = 999 000, nothing else.
        let rows = Self.rows([Self.story(apple: true, market: 1, [
            Self.step(Self.day(2026, 1, 10), .purchase(trial: false), end: Self.day(2026, 2, 10)),
            Self.step(Self.day(2026, 2, 10), .renew, end: Self.day(2026, 3, 10)),
        ])])
        let local = try #require(rows["2026-02 APPLE EUR local"])
        #expect((local.mrrMicros, local.startMrrMicros, local.fxMicros) == (9_990_000, 9_990_000, 0))
        let usd = try #require(rows["2026-02 APPLE USD reporting"])
        #expect((usd.startMrrMicros, usd.mrrMicros, usd.fxMicros) == (10_989_000, 11_988_000, 999_000))
        #expect([usd.newMicros, usd.expansionMicros, usd.contractionMicros, usd.churnMicros, usd.reactivationMicros] == [0, 0, 0, 0, 0])
        #expect(rows["2026-01 APPLE USD reporting"]?.newMicros == 10_989_000)
    }

    @Test func halfEvenRoundsTiesToEven() {
        // 30/12 = 2.5 → 2; 42/12 = 3.5 → 4; −30/12 = −2.5 → −2; 31/12 = 2.58 → 3.
        #expect([ExactRounding.halfEven(30, 12), ExactRounding.halfEven(42, 12), ExactRounding.halfEven(-30, 12),
                 ExactRounding.halfEven(31, 12)] == [2, 4, -2, 3])
    }

    @Test func periodArithmeticComesFromTheISOPeriod() throws {
        let start = Self.day(2026, 1, 31)
        #expect(try #require(BillingPeriodMath("P1W")).end(from: start) == start + 7 * WorldClock.day)
        #expect(try #require(BillingPeriodMath("P1M")).end(from: start) == Self.day(2026, 2, 28))
        #expect(try #require(BillingPeriodMath("P1Y")).end(from: start) == Self.day(2027, 1, 31))
        #expect(["P1W", "P1M", "P2M", "P3M", "P6M", "P1Y"].compactMap { BillingPeriodMath($0)?.monthlyTwelfths } == [52, 12, 6, 4, 2, 1])
        #expect(BillingPeriodMath("monthly") == nil)
    }
}
