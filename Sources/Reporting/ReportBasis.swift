/// Which history rows a report reads: every row effective by the as-of instant as corrected now, or only the rows
/// already recorded by then as well (what was known then; closed periods use it).
public enum ReportBasis: String, Sendable, CaseIterable {
    /// Every history row effective at or before the as-of instant, whenever it was recorded.
    case corrected
    /// Only rows effective and recorded at or before the as-of instant.
    case known
}
