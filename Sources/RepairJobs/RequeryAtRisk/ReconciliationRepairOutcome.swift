/// What the repair of one subscription did for one reconciliation item (`reconciliation_repair.outcome`).
enum ReconciliationRepairOutcome: Sendable, Equatable {
    /// The store stated rows the database lacked, or a refund amount it had wrong; they are written.
    case repaired(String)
    /// The store's answer holds nothing the database lacks.
    case notFound(String)
    /// The store no longer answers for it (a Google token or order past Google's window).
    case storeWindow(String)
    /// The store call or the write failed; the next run tries again.
    case failed(String)

    /// The stored outcome name.
    var name: String {
        switch self {
        case .repaired: return "repaired"
        case .notFound: return "not_found"
        case .storeWindow: return "store_window"
        case .failed: return "failed"
        }
    }

    /// The stored detail.
    var detail: String {
        switch self {
        case .repaired(let text), .notFound(let text), .storeWindow(let text), .failed(let text): return text
        }
    }
}
