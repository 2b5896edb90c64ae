/// One App Store Server API error: HTTP status, `errorCode` and `errorMessage` as Apple documents them.
struct AppleAPIError: Error, Sendable {
    let status: Int
    let code: Int64
    let message: String

    static let generalBadRequest = AppleAPIError(status: 400, code: 4_000_000, message: "Bad request.")
    static let invalidTransactionId = AppleAPIError(status: 400, code: 4_000_006, message: "Invalid transaction id.")
    static let invalidRevision = AppleAPIError(status: 400, code: 4_000_005, message: "Invalid request revision.")
    static let startDateTooFarInPast = AppleAPIError(
        status: 400, code: 4_000_012, message: "Invalid request. The start date is earlier than the allowed start date.")
    static let startDateAfterEndDate = AppleAPIError(
        status: 400, code: 4_000_013, message: "Invalid request. The end date precedes the start date or the dates are the same.")
    static let invalidPaginationToken = AppleAPIError(
        status: 400, code: 4_000_014, message: "Invalid request. The pagination token is invalid.")
    static let invalidStartDate = AppleAPIError(status: 400, code: 4_000_015, message: "Invalid request. The start date is not a timestamp value in milliseconds.")
    static let invalidEndDate = AppleAPIError(status: 400, code: 4_000_016, message: "Invalid request. The end date is not a timestamp value in milliseconds.")
    static let invalidNotificationType = AppleAPIError(
        status: 400, code: 4_000_018, message: "Invalid request. The notification type or subtype is invalid.")
    static let multipleFilters = AppleAPIError(
        status: 400, code: 4_000_019, message: "Invalid request. Too many filters were supplied.")
    static let invalidSort = AppleAPIError(status: 400, code: 4_000_021, message: "Invalid request. The sort parameter is invalid.")
    static let invalidProductType = AppleAPIError(status: 400, code: 4_000_022, message: "Invalid request. The product type parameter is invalid.")
    static let invalidInAppOwnershipType = AppleAPIError(
        status: 400, code: 4_000_026, message: "Invalid request. The in-app ownership type parameter is invalid.")
    static let invalidRevoked = AppleAPIError(status: 400, code: 4_000_030, message: "Invalid request. The revoked parameter is invalid.")
    static let invalidStatus = AppleAPIError(status: 400, code: 4_000_031, message: "Invalid request. The status parameter is invalid.")
    static let testNotificationNotFound = AppleAPIError(
        status: 404, code: 4_040_008, message: "Either the test notification token is expired or the notification and status are not yet available.")
    static let transactionIdNotFound = AppleAPIError(status: 404, code: 4_040_010, message: "Transaction id not found.")
    static let rateLimitExceeded = AppleAPIError(status: 429, code: 4_290_000, message: "Rate limit exceeded.")
    static let generalInternal = AppleAPIError(status: 500, code: 5_000_000, message: "An unknown error occurred.")
    static let generalInternalRetryable = AppleAPIError(status: 500, code: 5_000_001, message: "An unknown error occurred. Please try again.")
}
