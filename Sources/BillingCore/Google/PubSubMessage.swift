import Foundation

/// A Pub/Sub message: base64 `data` holding a DeveloperNotification, plus delivery metadata.
public struct PubSubMessage: Sendable, Equatable, Decodable {
    /// Base64 (standard alphabet) JSON of a `DeveloperNotification`.
    public var data: String?
    public var messageId: String?
    /// RFC 3339 publish time as sent.
    public var publishTime: String?
    public var attributes: [String: String]?

    /// Decodes `data` into the developer notification it carries.
    public func decodedNotification() throws(StorePayloadError) -> DeveloperNotification {
        guard let data else { throw .missingField("message.data") }
        guard let bytes = Data(base64Encoded: data) ?? Data(base64Encoded: Self.padded(data)) else {
            throw .invalidBase64(field: "message.data")
        }
        do {
            return try JSONDecoder().decode(DeveloperNotification.self, from: bytes)
        } catch {
            throw .invalidJSON(what: "DeveloperNotification", detail: String(describing: error))
        }
    }

    /// Adds the `=` padding some producers drop.
    static func padded(_ text: String) -> String {
        let remainder = text.count % 4
        return remainder == 0 ? text : text + String(repeating: "=", count: 4 - remainder)
    }
}
