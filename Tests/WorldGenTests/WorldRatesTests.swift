import Foundation
import Testing
@testable import WorldGen

@Suite struct WorldRatesTests {
    @Test func behaviouralRatesLandInTheirRanges() {
        let options = WorldOptions(seed: 3, subscriptions: 20_000, months: 24)
        let generator = World.makeGenerator(options)
        var trials = 0, converted = 0, renewals = 0, failures = 0, graceRecovered = 0, paid = 0, refunds = 0
        var paidMonths = 0.0, cancels = 0
        for index in 0..<options.subscriptions {
            let steps = generator.builder.story(index: index).steps
            for (position, step) in steps.enumerated() {
                let next = position + 1 < steps.count ? steps[position + 1].step : nil
                switch step.step {
                case .purchase(let trial):
                    if trial {
                        trials += 1
                        if steps.count > position + 1, case .autoRenewOff = steps[position + 1].step {} else if next != nil { converted += 1 }
                    } else { paid += 1 }
                case .renew: renewals += 1; paid += 1
                case .recover: paid += 1
                case .enterGrace:
                    failures += 1
                    if case .recover? = next { graceRecovered += 1 }
                case .refund: refunds += 1
                case .autoRenewOff(let system): if !system { cancels += 1 }
                default: break
                }
                if step.priceMicros > 0, let following = position + 1 < steps.count ? steps[position + 1].atMs : nil {
                    paidMonths += Double(following - step.atMs) / Double(30 * WorldClock.day)
                }
            }
        }
        let conversion = Double(converted) / Double(max(trials, 1))
        let failureRate = Double(failures) / Double(max(renewals + failures, 1))
        let graceRate = Double(graceRecovered) / Double(max(failures, 1))
        let refundRate = Double(refunds) / Double(max(paid, 1))
        #expect((0.30...0.50).contains(conversion), "trial conversion \(conversion)")
        #expect((0.05...0.10).contains(failureRate), "billing failure \(failureRate)")
        #expect((0.40...0.60).contains(graceRate), "grace recovery \(graceRate)")
        #expect((0.005...0.03).contains(refundRate), "refunds \(refundRate)")
        #expect(cancels > 0 && paidMonths > 0)
    }
}
