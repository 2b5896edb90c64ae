/// The verified, decoded store truth handed to the projection.
public enum StoreState: Sendable, Equatable {
    case apple(AppleStoreState)
    case google(GoogleStoreState)

    /// The provider the state comes from.
    public var provider: BillingProvider {
        switch self {
        case .apple: return .apple
        case .google: return .google
        }
    }
}
