/// The unaffected baseline of one price-change cohort, over the cohort's observed window.
///
/// Window: from the cohort's first member start (its earliest notice, or an untold decrease's renewal) to the latest
/// member's targeted renewal plus one billing period, capped at as-of — what the history shows, since it holds neither
/// the developer's announcement nor the change's effective instant.
/// A peer is a subscription of the same store outside the change's region, not a member, paying for the change's plan
/// at the window start: its latest paid charge (a trial is not one) is of that plan, its period runs past the start,
/// and no grace, hold or ending came after it. A peer churned when its first ending (any expiry, refund or family
/// revocation) at or after the start falls at or before the window end.
struct PriceChangeBaseline {
    /// How a story counts in the baseline.
    enum Count { case notPeer, stayed, churned }

    let catalogue: WorldCatalogue
    let change: Int
    let startMs: Int64
    let endMs: Int64

    /// Whether `story` is a peer of the change and, if so, whether it churned inside the window.
    func count(_ story: Story) -> Count {
        let change = catalogue.priceChanges[self.change]
        guard change.provider == (story.isApple ? "APPLE" : "GOOGLE"),
              change.region != catalogue.markets[story.market].googleRegion else { return .notPeer }
        var charge: TimedStep?
        var stopped = false
        var firstEndMs: Int64?
        for step in story.steps {
            switch step.step {
            case .purchase, .renew, .recover, .upgrade:
                if step.atMs <= startMs && step.priceMicros > 0 { charge = step; stopped = false }
            case .enterGrace, .enterHold:
                if step.atMs <= startMs { stopped = true }
            case .expire, .refund, .familyRevoke:
                if step.atMs <= startMs { stopped = true }
                if step.atMs >= startMs && firstEndMs == nil { firstEndMs = step.atMs }
            default:
                break
            }
        }
        guard let charge, !stopped, charge.periodEndMs > startMs,
              catalogue.plans[charge.plan].code == change.planCode else { return .notPeer }
        return (firstEndMs.map { $0 <= endMs } ?? false) ? .churned : .stayed
    }
}
