/// Every behavioural rate of the simulated world, in one place, with the ranges real apps report.
///
/// Sources for the ranges: RevenueCat "State of Subscription Apps" 2023–2025, Adapty/Recurly churn
/// benchmarks, Apple's and Google's own figures on involuntary churn and grace-period recovery.
public struct WorldRates: Sendable, Hashable {
    /// Share of new subscriptions that start with a free trial (offer-driven apps: 30–60%).
    public var trialShare = 0.40
    /// Trial → paid conversion (industry: 30–50% for opt-out trials).
    public var trialConversion = 0.40
    /// Monthly voluntary churn: chance per month that the user turns auto-renew off (3–8%).
    public var monthlyVoluntaryChurn = 0.05
    /// Yearly plans: chance the user turns auto-renew off during a year (annual non-renewal 30–50%).
    public var yearlyVoluntaryChurn = 0.40
    /// Chance a user who turned auto-renew off turns it back on before the period ends (5–15%).
    public var autoRenewReenable = 0.10
    /// Renewal billing failure: chance a renewal charge fails (5–10% of renewals).
    public var renewalBillingFailure = 0.07
    /// Recovery during the grace period (Apple/Google report 40–60%).
    public var graceRecovery = 0.50
    /// Recovery during billing retry / account hold after grace ended (15–30%).
    public var holdRecovery = 0.25
    /// Refund of a paid charge (1–3% of paid transactions).
    public var refund = 0.02
    /// Chargeback of a paid Google charge (0.1–0.5%).
    public var chargeback = 0.003
    /// Apple purchases that are family shared (3–8%), and the chance such a share is revoked (10–20%).
    public var familyShared = 0.05
    public var familyRevocation = 0.15
    /// Apple: consent-required price increase accepted (typically 80–90% consent or keep).
    public var applePriceIncreaseAcceptance = 0.85
    /// Google: opt-in price increase confirmed (80–90%).
    public var googleOptInAcceptance = 0.85
    /// Google: extra chance of cancelling after an opt-out increase notice (3–8%).
    public var googleOptOutExtraChurn = 0.05
    /// Upgrades (weekly→monthly, monthly→yearly) per month of paid life (0.5–2%).
    public var monthlyUpgrade = 0.01
    /// Apple downgrades (yearly→monthly) per year of paid life (2–5%).
    public var yearlyDowngrade = 0.03
    /// Google purchases that start PENDING (slow payment methods: 1–5%), and the share that complete (60–80%).
    public var googlePending = 0.03
    public var googlePendingCompletion = 0.70

    /// Creates the standard rates.
    public init() {}

    /// The standard rates.
    public static let standard = WorldRates()
}
