import Crypto
import Foundation
import HTTP

extension StoreSimulator {
    /// Calls the endpoint; a signing failure becomes Apple's 5000000.
    func dispatch(_ context: RequestContext) -> HTTPResponse {
        do {
            switch context.route.endpoint {
            case .appleSubscriptionStatuses: return try AppleSubscriptionAPI.statuses(context)
            case .appleTransactionInfo: return try AppleSubscriptionAPI.transactionInfo(context)
            case .appleTransactionHistory: return try AppleSubscriptionAPI.history(context)
            case .appleNotificationHistory: return try AppleNotificationAPI.history(context)
            case .appleRefundHistory: return try AppleLookupAPI.refundHistory(context)
            case .appleOrderLookup: return try AppleLookupAPI.orderLookup(context)
            case .appleTestNotification: return try AppleNotificationAPI.requestTest(context)
            case .appleTestNotificationStatus: return try AppleNotificationAPI.testStatus(context)
            case .appleFinanceReports: return AppStoreConnectReportsAPI.finance(context, files: files)
            case .appleSalesReports: return AppStoreConnectReportsAPI.sales(context, files: files)
            case .googleToken: return oauth.token(context.request, state: state, now: context.now)
            case .googleSubscriptionGet: return GooglePlayAPI.subscription(context)
            case .googleAcknowledge: return GooglePlayAPI.acknowledge(context)
            case .googleVoidedPurchases: return GoogleVoidedAPI.list(context)
            case .googleOrderGet: return GoogleOrdersAPI.get(context)
            case .googleOrdersBatchGet: return GoogleOrdersAPI.batchGet(context)
            case .storageList: return CloudStorageAPI.list(context, files: files)
            case .storageDownload: return CloudStorageAPI.object(context, files: files)
            case .unknown: return Responses.text(404, "Not Found")
            }
        } catch {
            return Responses.apple(.generalInternal)
        }
    }

    /// Apple's 401 for a bad JWT, Google's 401/403 for a missing or insufficient access token; nil when allowed.
    func authenticate(_ route: SimulatorRoute, _ request: HTTPRequest, now: Date) -> HTTPResponse? {
        let endpoint = route.endpoint
        if endpoint.isApple {
            guard let appleAuthenticator else { return nil }
            let reports = endpoint == .appleFinanceReports || endpoint == .appleSalesReports
            guard let reason = appleAuthenticator.rejection(of: request, reports: reports, now: now) else { return nil }
            return Responses.text(401, "Unauthenticated: \(reason)")
        }
        guard endpoint != .googleToken else { return nil }
        return oauth.rejection(of: request, endpoint: endpoint, state: state, now: now)
    }

    /// The bucket key's app part: the bundle id, the package name, the storage bucket, or the OAuth endpoint.
    func rateLimitKey(_ route: SimulatorRoute) -> String {
        switch route.endpoint {
        case .googleSubscriptionGet, .googleAcknowledge, .googleVoidedPurchases, .googleOrderGet, .googleOrdersBatchGet, .storageList,
             .storageDownload:
            return route.parameters.first ?? ""
        case .googleToken:
            return "oauth"
        default:
            return route.sandbox ? app.bundleId + " sandbox" : app.bundleId
        }
    }

    /// Apple: 429 errorCode 4290000 with `Retry-After` = the next token's time in Unix milliseconds (rounded up);
    /// Google: 429 RESOURCE_EXHAUSTED (or 403 rateLimitExceeded when configured), no Retry-After.
    func tooManyRequests(_ endpoint: SimulatorEndpoint, retryAt: Date) -> HTTPResponse {
        if endpoint.isApple {
            let milliseconds = Int64((retryAt.timeIntervalSince1970 * 1000).rounded(.up))
            return Responses.apple(.rateLimitExceeded, headers: [("Retry-After", String(milliseconds))])
        }
        if configuration.googleQuotaStatus == 403 {
            return Responses.google(403, "PERMISSION_DENIED", "Rate Limit Exceeded", reason: "rateLimitExceeded",
                                    domain: "usageLimits")
        }
        return Responses.google(429, "RESOURCE_EXHAUSTED", "Quota exceeded for quota metric 'Queries'.",
                                reason: "rateLimitExceeded", domain: "usageLimits")
    }

    /// An injected internal error: Apple 5000000 or 5000001 (by the seeded draw), Google 500 INTERNAL or 503 UNAVAILABLE.
    func serverError(_ endpoint: SimulatorEndpoint, variant: UInt64) -> HTTPResponse {
        if endpoint.isApple {
            return Responses.apple(variant & 1 == 0 ? .generalInternalRetryable : .generalInternal)
        }
        if variant & 1 == 0 {
            return Responses.google(503, "UNAVAILABLE", "The service is currently unavailable.", reason: "backendError",
                                    domain: "global")
        }
        return Responses.google(500, "INTERNAL", "Internal error encountered.", reason: "backendError", domain: "global")
    }
}
