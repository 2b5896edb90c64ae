/// One object (report file) in a bucket.
public struct StorageObject: Sendable, Decodable, Hashable {
    public var name: String
    /// Size in bytes, as Google sends it (a string).
    public var size: String?
    public var updated: String?
}
