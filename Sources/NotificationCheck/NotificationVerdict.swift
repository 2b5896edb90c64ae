/// One store's answer to "do notifications reach us?": a verdict and the line that explains it.
public struct NotificationVerdict: Sendable, Equatable {
    /// `apple` or `google`.
    public let store: String
    /// True when notifications arrive as they should.
    public let healthy: Bool
    /// The explanation printed for on-call (`apple: OK — …`, `apple: FAIL — …`).
    public let detail: String

    /// Declares a verdict.
    public init(store: String, healthy: Bool, detail: String) {
        self.store = store
        self.healthy = healthy
        self.detail = detail
    }

    /// `apple: OK — …` or `apple: FAIL — …`.
    public var line: String { "\(store): \(healthy ? "OK" : "FAIL") — \(detail)" }
}
