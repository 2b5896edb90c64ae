/// The cancel survey answer of a user-initiated cancellation.
public struct CancelSurveyResult: Sendable, Equatable, Decodable {
    /// Raw `reason`, e.g. CANCEL_SURVEY_REASON_COST_RELATED.
    public var reason: String?
    public var reasonUserInput: String?
}
