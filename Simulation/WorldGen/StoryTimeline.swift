/// What a story means for the metrics: its MRR contribution as a step function of time, and its money and billing
/// events. Built from the story alone (never from the database rows).
///
/// MRR contribution (in twelfths of a micro, so that every normalisation is an integer): the current recurring price
/// × `BillingPeriodMath.monthlyTwelfths` of the plan billed, while the subscription is paid and entitled — after a
/// paid purchase, renewal, recovery or upgrade (ACTIVE, and CANCELED until the period ends) and in a grace period
/// (at the price being retried) once the subscriber has paid. Zero while pending, in a free trial, in a grace period
/// that follows only a free trial (never paid), on hold, and after expiry or revocation.
struct StoryTimeline {
    /// `(from, twelfths)`: the contribution from this instant on (starts at 0 before the first step).
    private(set) var segments: [(atMs: Int64, twelfths: Int64)] = []
    /// A refund or chargeback: when, of which charge (instant) and how much.
    struct Refund { let atMs: Int64; let chargeAtMs: Int64; let micros: Int64; let chargeback: Bool }
    private(set) var refunds: [Refund] = []
    /// Family-sharing revocations (no money moves).
    private(set) var familyRevocations: [Int64] = []
    /// One billing failure: entered grace at `atMs`; what became of it by the as-of instant.
    struct Failure {
        let atMs: Int64
        var enteredHold = false
        var recoveredInGrace = false
        var recoveredFromHold = false
        var churned = false
    }
    private(set) var failures: [Failure] = []

    init(_ story: Story, catalogue: WorldCatalogue) {
        var current: Int64 = 0
        var lastCharge: (atMs: Int64, micros: Int64)?
        func value(_ step: TimedStep) -> Int64 {
            step.priceMicros * (BillingPeriodMath(catalogue.plans[step.plan].billingPeriod) ?? .month).monthlyTwelfths
        }
        func set(_ at: Int64, _ twelfths: Int64) {
            current = twelfths
            if let last = segments.last, last.atMs == at { segments[segments.count - 1].twelfths = twelfths } else {
                segments.append((at, twelfths))
            }
        }
        for step in story.steps {
            switch step.step {
            case .pendingStart, .pendingCanceled, .enterHold:
                set(step.atMs, 0)
                if step.step == .enterHold, !failures.isEmpty { failures[failures.count - 1].enteredHold = true }
            case .purchase(let trial):
                set(step.atMs, trial ? 0 : value(step))
                if !trial { lastCharge = (step.atMs, step.priceMicros) }
            case .renew, .recover, .upgrade:
                set(step.atMs, value(step))
                lastCharge = (step.atMs, step.priceMicros)
                if step.step == .recover, let open = failures.indices.last {
                    if failures[open].enteredHold { failures[open].recoveredFromHold = true } else { failures[open].recoveredInGrace = true }
                }
            case .enterGrace:
                failures.append(Failure(atMs: step.atMs))
                // A subscriber who has never paid (a free trial whose conversion failed) is not MRR in grace; their
                // first paid charge, the recovery, is then `new` (docs/METRICS.md, "Never paid").
                set(step.atMs, lastCharge == nil ? 0 : value(step))
            case .expire(let reason):
                set(step.atMs, 0)
                if reason == .billing, !failures.isEmpty { failures[failures.count - 1].churned = true }
            case .refund(let chargeback):
                set(step.atMs, 0)
                if let charge = lastCharge {
                    let share = story.isApple && !chargeback
                        ? ProratedRefund.applePercentage(atMs: step.atMs, chargeMicros: charge.micros,
                                                         currency: catalogue.markets[story.market].currency) : nil
                    refunds.append(Refund(atMs: step.atMs, chargeAtMs: charge.atMs, micros: ProratedRefund.amount(charge.micros, percentage: share),
                                          chargeback: chargeback))
                }
            case .familyRevoke:
                set(step.atMs, 0)
                familyRevocations.append(step.atMs)
            case .autoRenewOff, .autoRenewOn, .priceNotice, .priceAccept, .downgradeScheduled:
                set(step.atMs, current)
            }
        }
    }

    /// The contribution at instant `ms` (twelfths of a micro).
    func twelfths(at ms: Int64) -> Int64 {
        var low = 0, high = segments.count
        while low < high {
            let mid = (low + high) / 2
            if segments[mid].atMs <= ms { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? 0 : segments[low - 1].twelfths
    }
}
