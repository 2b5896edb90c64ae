/// One page of Get Notification History.
public struct NotificationHistoryResponse: Sendable, Decodable {
    public var paginationToken: String?
    public var hasMore: Bool?
    public var notificationHistory: [NotificationHistoryResponseItem]?
}
