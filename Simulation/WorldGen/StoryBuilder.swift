import SeededRandom

/// Draws one subscription's life from its own PRNG stream using `WorldRates`.
struct StoryBuilder {
    let options: WorldOptions
    let catalogue: WorldCatalogue
    let asOfMs: Int64
    let windowStartMs: Int64

    func story(index: Int) -> Story {
        var rng = SplitMix64(seed: options.seed, salt: 0x5354_4F52_59, index: UInt64(index))
        let rates = options.rates
        let isApple = rng.chance(options.appleShare)
        let market = rng.weighted(catalogue.markets.map(\.weight))
        var plan = rng.weighted(catalogue.plans.map(\.weight))
        let isTest = rng.chance(options.testShare)
        let familyShared = isApple && rng.chance(rates.familyShared)
        var start = rng.between(windowStartMs, asOfMs - WorldClock.hour)
        var steps: [TimedStep] = []
        var out = Emitter(asOfMs: asOfMs)

        if !isApple && rng.chance(rates.googlePending) {
            let delay = rng.between(WorldClock.hour, 48 * WorldClock.hour)
            if start + delay < asOfMs {
                let completes = rng.chance(rates.googlePendingCompletion)
                out.add(&steps, start, .pendingStart, plan, 0, 0)
                start += delay
                if !completes {
                    out.add(&steps, start, .pendingCanceled, plan, 0, 0)
                    return Story(index: index, isApple: isApple, market: market, isTest: isTest, familyShared: false, steps: steps)
                }
            }
        }
        let trial = catalogue.plans[plan].googleTrialOfferId != nil && rng.chance(rates.trialShare)
        var price = catalogue.price(plan: plan, market: market, atMs: start, isApple: isApple)
        var periodStart = start
        var periodEnd = trial ? start + 7 * WorldClock.day : period(plan, from: start)
        out.add(&steps, start, .purchase(trial: trial), plan, trial ? 0 : price, periodEnd)
        var inTrial = trial
        var nextPlan = plan

        while !out.done {
            var autoRenew = true
            var expireReason = StoryStep.ExpireReason.voluntary
            var inPeriod: [(Int64, StoryStep)] = []
            var terminal: (Int64, StoryStep)?
            let length = periodEnd - periodStart
            if inTrial {
                if !rng.chance(rates.trialConversion) {
                    inPeriod.append((rng.between(periodStart + WorldClock.minute, periodEnd - WorldClock.minute), .autoRenewOff(system: false)))
                }
            } else {
                let months = Double(length) / Double(30 * WorldClock.day)
                let refundAt = periodStart + rng.between(WorldClock.hour, min(20 * WorldClock.day, max(length - WorldClock.hour, 2 * WorldClock.hour)))
                if rng.chance(rates.refund) {
                    terminal = (refundAt, .refund(chargeback: false))
                } else if !isApple && rng.chance(rates.chargeback) {
                    // A chargeback lands a week after the charge, but within the paid period it reverses (a weekly
                    // period would otherwise end, unrenewed, before its own chargeback).
                    terminal = (min(refundAt + 7 * WorldClock.day, periodEnd - WorldClock.hour), .refund(chargeback: true))
                } else if familyShared && rng.chance(rates.familyRevocation * min(months / 12, 1)) {
                    terminal = (rng.between(periodStart + WorldClock.hour, periodEnd), .familyRevoke)
                } else if plan < catalogue.plans.count - 1 && rng.chance(1 - pow1(1 - rates.monthlyUpgrade, months)) {
                    terminal = (rng.between(periodStart + WorldClock.hour, periodEnd - WorldClock.hour), .upgrade(plan: plan + 1))
                }
                if isApple && plan == catalogue.plans.count - 1 && rng.chance(rates.yearlyDowngrade) {
                    nextPlan = plan - 1
                    inPeriod.append((rng.between(periodStart + WorldClock.hour, periodEnd - WorldClock.hour), .downgradeScheduled(plan: nextPlan)))
                }
                let churn = catalogue.plans[plan].billingPeriod == "P1Y" ? rates.yearlyVoluntaryChurn
                    : 1 - pow1(1 - rates.monthlyVoluntaryChurn, months)
                if rng.chance(churn) {
                    let off = rng.between(periodStart + WorldClock.minute, periodEnd - WorldClock.minute)
                    inPeriod.append((off, .autoRenewOff(system: false)))
                    if rng.chance(rates.autoRenewReenable) { inPeriod.append((rng.between(off + 1, periodEnd - 1), .autoRenewOn)) }
                }
            }
            var renewalPrice = catalogue.price(plan: nextPlan, market: market, atMs: periodEnd, isApple: isApple)
            if nextPlan == plan,
               let change = catalogue.change(plan: plan, market: market, renewalAtMs: periodEnd, currentMicros: price, isApple: isApple),
               let changeIndex = catalogue.priceChanges.firstIndex(of: change) {
                let notice = max(change.announcedAtMs, periodEnd - 30 * WorldClock.day, periodStart + WorldClock.hour)
                renewalPrice = change.newMicros
                if notice < periodEnd - 2 * WorldClock.day && !(isApple && !change.isIncrease) {
                    inPeriod.append((notice, .priceNotice(change: changeIndex)))
                    let optIn = change.mode == .priceIncrease
                    if change.isIncrease && optIn {
                        let acceptance = isApple ? rates.applePriceIncreaseAcceptance : rates.googleOptInAcceptance
                        if rng.chance(acceptance) {
                            inPeriod.append((rng.between(notice + 1, periodEnd - WorldClock.day), .priceAccept))
                        } else if isApple {
                            expireReason = .priceIncrease
                        } else {
                            inPeriod.append((periodEnd - WorldClock.day, .autoRenewOff(system: true)))
                        }
                    } else if change.isIncrease && rng.chance(rates.googleOptOutExtraChurn) {
                        inPeriod.append((rng.between(notice + 1, periodEnd - WorldClock.day), .autoRenewOff(system: false)))
                    }
                } else if change.isIncrease {
                    renewalPrice = price   // not noticed in time: the increase waits for a later renewal
                }
            }
            inPeriod.sort { $0.0 < $1.0 }
            for (at, step) in inPeriod {
                if let terminal, terminal.0 <= at { break }
                if case .autoRenewOff(let system) = step {
                    guard autoRenew else { continue }
                    autoRenew = false
                    if system { expireReason = .priceIncrease } else if expireReason != .priceIncrease { expireReason = .voluntary }
                } else if case .autoRenewOn = step {
                    guard !autoRenew, expireReason == .voluntary else { continue }
                    autoRenew = true
                }
                out.add(&steps, at, step, plan, price, periodEnd)
            }
            if let (at, step) = terminal {
                if case .upgrade(let newPlan) = step {
                    plan = newPlan
                    nextPlan = newPlan
                    price = catalogue.price(plan: plan, market: market, atMs: at, isApple: isApple)
                    periodStart = at
                    periodEnd = period(plan, from: at)
                    inTrial = false
                    out.add(&steps, at, step, plan, price, periodEnd)
                    continue
                }
                out.add(&steps, at, step, plan, price, periodEnd)
                break
            }
            if !autoRenew || (expireReason == .priceIncrease && isApple) {
                out.add(&steps, periodEnd, .expire(reason: expireReason), plan, price, periodEnd)
                break
            }
            let boundary = periodEnd
            plan = nextPlan
            price = renewalPrice
            inTrial = false
            if rng.chance(rates.renewalBillingFailure) {
                let grace = (catalogue.plans[plan].billingPeriod == "P1W" ? 6 : 16) * WorldClock.day / (isApple ? 1 : 2)
                let graceEnd = boundary + grace
                out.add(&steps, boundary, .enterGrace(graceEndMs: graceEnd), plan, price, boundary)
                var recoveredAt: Int64?
                if rng.chance(rates.graceRecovery) {
                    recoveredAt = rng.between(boundary + WorldClock.hour, graceEnd - WorldClock.hour)
                } else {
                    out.add(&steps, graceEnd, .enterHold, plan, price, boundary)
                    let holdEnd = boundary + (isApple ? 60 : 30) * WorldClock.day
                    if rng.chance(rates.holdRecovery) { recoveredAt = rng.between(graceEnd + WorldClock.hour, holdEnd - WorldClock.hour) }
                    else { out.add(&steps, holdEnd, .expire(reason: .billing), plan, price, boundary); break }
                }
                guard let recovered = recoveredAt else { break }
                periodStart = recovered
                periodEnd = period(plan, from: recovered)
                out.add(&steps, recovered, .recover, plan, price, periodEnd)
            } else {
                periodStart = boundary
                periodEnd = period(plan, from: boundary)
                out.add(&steps, boundary, .renew, plan, price, periodEnd)
            }
        }
        return Story(index: index, isApple: isApple, market: market, isTest: isTest, familyShared: familyShared, steps: steps)
    }

    /// The end of `plan`'s billing period starting at `ms`, from its ISO period (P1W is seven days).
    func period(_ plan: Int, from ms: Int64) -> Int64 {
        (BillingPeriodMath(catalogue.plans[plan].billingPeriod) ?? BillingPeriodMath.month).end(from: ms)
    }

    private func pow1(_ base: Double, _ exponent: Double) -> Double {
        var result = 1.0, remaining = exponent
        while remaining >= 1 { result *= base; remaining -= 1 }
        return result * (1 - (1 - base) * remaining)
    }

    /// Appends steps up to `asOf`; after the first step beyond it the story is done.
    struct Emitter {
        let asOfMs: Int64
        var done = false

        mutating func add(_ steps: inout [TimedStep], _ at: Int64, _ step: StoryStep, _ plan: Int, _ price: Int64, _ end: Int64) {
            guard !done else { return }
            guard at <= asOfMs else { done = true; return }
            steps.append(TimedStep(atMs: at, step: step, plan: plan, priceMicros: price, periodEndMs: end))
        }
    }
}
