/// One page of a Cloud Storage object listing.
public struct StorageObjectList: Sendable, Decodable {
    public var items: [StorageObject]?
    public var nextPageToken: String?
}
