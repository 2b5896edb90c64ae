/// `canceledStateContext.userInitiatedCancellation`.
public struct UserInitiatedCancellation: Sendable, Equatable, Decodable {
    public var cancelSurveyResult: CancelSurveyResult?
    public var cancelTime: RFC3339Timestamp?
}
