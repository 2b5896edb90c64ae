/// Whether a Google purchase still has to be acknowledged (SQL enum `AcknowledgementStatus`).
public enum AcknowledgementStatus: String, Sendable, Hashable, Codable, CaseIterable {
    case notRequired = "NOT_REQUIRED"
    case pending = "PENDING"
    case acknowledged = "ACKNOWLEDGED"
}
