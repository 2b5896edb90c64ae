import Foundation
import Postgres
import StoreTruth

extension ManifestRecall {
    /// The recall lines the demo prints (under 80 columns): the total, then per fault kind the injected, reachable
    /// and repaired counts, then the unreachable ones by reason.
    public static func report(_ faults: [InjectedFault], truth: StoreTruth, database: PostgresConnection, asOf: Date) throws -> [String] {
        let split = try reachable(faults, truth: truth, database: database, asOf: asOf)
        let missed = Set(try unrepaired(split.faults, database: database))
        var repairedByKind: [ProjectionFault: Int] = [:]
        for fault in split.faults {
            let line = "\(fault.kind.rawValue) \(fault.provider) \(fault.subscriptionId) \(fault.field): \(fault.databaseValue ?? "nil") → \(fault.correctValue ?? "nil")"
            if !missed.contains(line) { repairedByKind[fault.kind, default: 0] += 1 }
        }
        let repaired = repairedByKind.values.reduce(0, +)
        let share = split.faults.isEmpty ? 100 : Double(repaired) * 100 / Double(split.faults.count)
        var lines = [String(format: "recall: %d/%d reachable injected faults repaired (%.1f %%); %d unreachable by design",
                            repaired, split.faults.count, share, split.excluded.values.reduce(0, +))]
        lines.append("  " + "kind".padding(toLength: 32, withPad: " ", startingAt: 0) + "injected  reachable  repaired")
        for kind in ProjectionFault.allCases {
            let injected = faults.filter { $0.kind == kind }.count
            guard injected > 0 else { continue }
            let reachableCount = split.faults.filter { $0.kind == kind }.count
            lines.append("  " + kind.rawValue.padding(toLength: 32, withPad: " ", startingAt: 0)
                         + String(format: "%8d  %9d  %8d", injected, reachableCount, repairedByKind[kind] ?? 0))
        }
        if !split.excluded.isEmpty {
            lines.append("  unreachable by reason:")
            lines += split.excluded.keys.sorted().map { "    " + $0.padding(toLength: 40, withPad: " ", startingAt: 0) + String(format: "%6d", split.excluded[$0] ?? 0) }
        }
        return lines
    }
}
