/// Uniform random numbers for backoff jitter; tests inject a fixed sequence.
public protocol RetryRandomSource: Sendable {
    /// A value in `0..<1`.
    func nextUnit() -> Double
}
