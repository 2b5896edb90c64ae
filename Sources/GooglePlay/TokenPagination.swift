import BillingCore

/// Google's page token wrapper.
public struct TokenPagination: Sendable, Decodable {
    public var nextPageToken: String?
}
