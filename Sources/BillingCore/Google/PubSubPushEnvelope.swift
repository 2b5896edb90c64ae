/// The Pub/Sub push body the API server stored for an RTDN: `{message, subscription}`.
public struct PubSubPushEnvelope: Sendable, Equatable, Decodable {
    public var message: PubSubMessage
    public var subscription: String?
}
