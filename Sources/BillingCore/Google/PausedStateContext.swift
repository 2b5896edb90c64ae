/// `pausedStateContext`.
public struct PausedStateContext: Sendable, Equatable, Decodable {
    public var autoResumeTime: RFC3339Timestamp?
}
