/// What a story means for the subscriber, trial, plan-change and cohort figures (Reports/README.md "Subscribers",
/// "Trial conversion", "Plan-change mix", "Cohorts"), from the story alone (never from the database rows).
struct StoryLifecycle {
    /// A subscriber's state at an instant (nil: not counted).
    enum State: String, CaseIterable { case trialing, paying, grace, billingRetry, paused, cancelledPaidThrough }

    /// What became of a free trial by the as-of instant.
    enum TrialOutcome: String, CaseIterable { case convertedInTrial, convertedAfterRetry, cancelled, failed, open }

    /// A plan change: when, its type (`upgrade`, `downgrade`, `crossgrade`, `period_change`).
    struct PlanChange { let atMs: Int64; let type: String }

    let story: Story
    let catalogue: WorldCatalogue
    let asOfMs: Int64

    /// The state at `ms`: the latest state step at or before it, and the auto-renew switch since the latest charge.
    func state(at ms: Int64) -> State? {
        var current: (step: StoryStep, end: Int64)?
        var renewalOff = false
        for step in story.steps where step.atMs <= ms {
            switch step.step {
            case .purchase, .renew, .recover, .upgrade:
                current = (step.step, step.periodEndMs)
                renewalOff = false
            case .enterGrace(let graceEnd): current = (step.step, graceEnd)
            case .enterHold: current = (step.step, 0)
            case .expire, .refund, .familyRevoke, .pendingStart, .pendingCanceled: current = nil
            case .autoRenewOff: renewalOff = true
            case .autoRenewOn: renewalOff = false
            case .priceNotice, .priceAccept, .downgradeScheduled: break
            }
        }
        guard let current else { return nil }
        switch current.step {
        case .purchase(let trial):
            guard ms < current.end else { return nil }
            return trial ? .trialing : renewalOff ? .cancelledPaidThrough : .paying
        case .renew, .recover, .upgrade:
            guard ms < current.end else { return nil }
            return renewalOff ? .cancelledPaidThrough : .paying
        case .enterGrace: return ms < current.end ? .grace : .billingRetry
        case .enterHold: return .billingRetry
        default: return nil
        }
    }

    /// The story's free trial (its first charge, of 0): start and outcome; nil when it has none.
    var trial: (startMs: Int64, outcome: TrialOutcome)? {
        guard let index = story.steps.firstIndex(where: { if case .purchase = $0.step { return true } else { return false } }),
              case .purchase(true) = story.steps[index].step else { return nil }
        let start = story.steps[index], bound = min(start.periodEndMs, asOfMs)
        var failed = false, off = false, ended = false
        for step in story.steps[(index + 1)...] {
            switch step.step {
            case .renew, .recover, .upgrade: return (start.atMs, failed ? .convertedAfterRetry : .convertedInTrial)
            case .enterGrace, .enterHold: failed = true
            case .autoRenewOff where step.atMs <= bound: off = true
            case .autoRenewOn where step.atMs <= bound: off = false
            case .expire, .refund, .familyRevoke: ended = true
            default: break
            }
        }
        return (start.atMs, off ? .cancelled : ended ? .failed : .open)
    }

    /// The charges (a free trial's included) whose plan differs from the previous charge's, typed.
    var planChanges: [PlanChange] {
        var changes: [PlanChange] = []
        var previous: TimedStep?
        for step in story.steps {
            switch step.step {
            case .purchase, .renew, .recover, .upgrade:
                if let before = previous, before.plan != step.plan {
                    let periods = (catalogue.plans[before.plan].billingPeriod, catalogue.plans[step.plan].billingPeriod)
                    let (old, new) = (value(before), value(step))
                    let type = periods.0 != periods.1 ? "period_change" : new > old ? "upgrade" : new < old ? "downgrade" : "crossgrade"
                    changes.append(PlanChange(atMs: step.atMs, type: type))
                }
                previous = step
            default: break
            }
        }
        return changes
    }

    /// The paid charges' instants and amounts (amount > 0).
    var paidCharges: [(atMs: Int64, micros: Int64)] {
        story.steps.compactMap { step in
            switch step.step {
            case .purchase, .renew, .recover, .upgrade: return step.priceMicros > 0 ? (step.atMs, step.priceMicros) : nil
            default: return nil
            }
        }
    }

    private func value(_ step: TimedStep) -> Int64 {
        step.priceMicros * (BillingPeriodMath(catalogue.plans[step.plan].billingPeriod) ?? .month).monthlyTwelfths
    }
}
