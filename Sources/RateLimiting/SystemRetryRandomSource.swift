/// The system's random generator.
public struct SystemRetryRandomSource: RetryRandomSource {
    /// Makes the system source.
    public init() {}

    /// A uniform value in `0..<1`.
    public func nextUnit() -> Double { Double.random(in: 0..<1) }
}
