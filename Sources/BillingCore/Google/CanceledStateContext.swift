/// `canceledStateContext`: who canceled; one member is present.
public struct CanceledStateContext: Sendable, Equatable, Decodable {
    public var userInitiatedCancellation: UserInitiatedCancellation?
    public var systemInitiatedCancellation: PresenceMarker?
    public var developerInitiatedCancellation: PresenceMarker?
    public var replacementCancellation: PresenceMarker?
}
