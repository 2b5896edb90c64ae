import Foundation

/// The body of Get Notification History: a window (ms since the epoch) and optional filters.
public struct NotificationHistoryRequest: Sendable, Hashable, Codable {
    public var startDate: Int64
    public var endDate: Int64
    public var notificationType: String?
    public var notificationSubtype: String?
    public var transactionId: String?
    public var onlyFailures: Bool?

    /// A request for the window [start, end).
    public init(start: Date, end: Date, notificationType: String? = nil, notificationSubtype: String? = nil,
                transactionId: String? = nil, onlyFailures: Bool? = nil) {
        self.startDate = Int64((start.timeIntervalSince1970 * 1000).rounded())
        self.endDate = Int64((end.timeIntervalSince1970 * 1000).rounded())
        self.notificationType = notificationType
        self.notificationSubtype = notificationSubtype
        self.transactionId = transactionId
        self.onlyFailures = onlyFailures
    }
}
