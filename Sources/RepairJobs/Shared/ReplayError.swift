/// Why an inbound event could not be replayed; each message names the event (tokens masked).
public struct ReplayError: Error, CustomStringConvertible, Sendable {
    /// The message, naming the event.
    public let description: String

    /// An error with `description`.
    public init(_ description: String) {
        self.description = description
    }
}
