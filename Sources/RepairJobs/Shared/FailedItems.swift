import BillingCore
import JobKit

/// Items a repair run could not finish and left for the next run. Each is counted `failed` and `failed.<kind>`; a run
/// that completed with any of them ends with exit 3 (completed, a threshold breached: zero failed items), its summary
/// naming how many failed and the commonest kinds. Exit 1 stays for a run that could not complete.
public enum FailedItems {
    /// The summary count of failed items of one kind.
    static func key(_ kind: FailureKind) -> String { "failed." + kind.name }

    /// Counts one failed item of `context`'s run: `failed` and `failed.<its kind>`.
    static func count(_ context: JobContext, _ failure: ItemFailure) {
        context.count("failed")
        context.count(key(failure.failureKind))
    }

    /// Throws `JobError.thresholdBreached` when the run counted failed items (not in a dry run, which writes nothing):
    /// "N items failed and are left for the next run; commonest errors: timeout 3, http_503 2".
    public static func breachIfAny(_ context: JobContext) throws {
        if let message = message(context.counts), !context.dryRun { throw JobError.thresholdBreached(message) }
    }

    /// The breach message for summary counts holding failed items, or nil when none failed. Items a run moved to the
    /// dead letters (`dead_lettered`, counted among the failed) are named as such: they are not retried.
    public static func message(_ counts: [String: Int]) -> String? {
        guard let failed = counts["failed"], failed > 0 else { return nil }
        let kinds = counts.filter { $0.key.hasPrefix("failed.") && $0.value > 0 }
            .sorted { ($0.value, $1.key) > ($1.value, $0.key) }
            .prefix(3).map { "\($0.key.dropFirst("failed.".count)) \($0.value)" }
        let dead = min(counts["dead_lettered"] ?? 0, failed)
        let fate: String
        if dead == 0 {
            fate = failed == 1 ? "1 item failed and is left for the next run" : "\(failed) items failed and are left for the next run"
        } else {
            let left = failed - dead
            fate = "\(failed) \(failed == 1 ? "item" : "items") failed: \(dead) dead-lettered after the last attempt"
                + (left > 0 ? ", \(left) left for the next run" : "")
        }
        return fate + (kinds.isEmpty ? "" : "; commonest errors: " + kinds.joined(separator: ", "))
    }
}
