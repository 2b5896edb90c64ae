import Foundation
import HTTP

/// Which endpoint a request addresses, with its decoded path parameters.
struct SimulatorRoute {
    let endpoint: SimulatorEndpoint
    /// Path parameters in order (transaction id, package name and token, bucket and object name, …).
    let parameters: [String]
    /// False when the path matched but the method is not the endpoint's.
    let methodAllowed: Bool
    /// True for Apple paths under `/sandbox`: the simulator's stand-in for Apple's sandbox host
    /// (`api.storekit-sandbox.apple.com`), so one loopback port serves both environments.
    private(set) var sandbox = false

    private init(_ endpoint: SimulatorEndpoint, _ parameters: [String] = [], method: String, expected: String) {
        self.endpoint = endpoint
        self.parameters = parameters
        methodAllowed = method == expected
    }

    /// Matches the request's path; unknown paths give `.unknown`. A leading `/sandbox` selects Apple's sandbox.
    init(_ request: HTTPRequest) {
        var raw = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        let sandbox = raw.first == "sandbox" && raw.count > 1 && raw[1] == "inApps"
        if sandbox { raw.removeFirst() }
        self.init(segments: raw.map { $0.removingPercentEncoding ?? $0 }, method: request.method.uppercased())
        self.sandbox = sandbox
    }

    private init(segments s: [String], method m: String) {
        switch s.count {
        case 1 where s[0] == "token":
            self.init(.googleToken, method: m, expected: "POST")
        case 2 where s[0] == "v1" && s[1] == "financeReports":
            self.init(.appleFinanceReports, method: m, expected: "GET")
        case 2 where s[0] == "v1" && s[1] == "salesReports":
            self.init(.appleSalesReports, method: m, expected: "GET")
        case 4 where s[0] == "inApps" && s[1] == "v1" && s[2] == "notifications" && s[3] == "history":
            self.init(.appleNotificationHistory, method: m, expected: "POST")
        case 4 where s[0] == "inApps" && s[1] == "v1" && s[2] == "notifications" && s[3] == "test":
            self.init(.appleTestNotification, method: m, expected: "POST")
        case 4 where s[0] == "inApps" && s[1] == "v1" && s[2] == "subscriptions" && !s[3].isEmpty:
            self.init(.appleSubscriptionStatuses, [s[3]], method: m, expected: "GET")
        case 4 where s[0] == "inApps" && s[1] == "v1" && s[2] == "transactions" && !s[3].isEmpty:
            self.init(.appleTransactionInfo, [s[3]], method: m, expected: "GET")
        case 4 where s[0] == "inApps" && s[1] == "v2" && s[2] == "history" && !s[3].isEmpty:
            self.init(.appleTransactionHistory, [s[3]], method: m, expected: "GET")
        case 4 where s[0] == "inApps" && s[1] == "v1" && s[2] == "lookup" && !s[3].isEmpty:
            self.init(.appleOrderLookup, [s[3]], method: m, expected: "GET")
        case 5 where s[0] == "inApps" && s[1] == "v1" && s[2] == "notifications" && s[3] == "test" && !s[4].isEmpty:
            self.init(.appleTestNotificationStatus, [s[4]], method: m, expected: "GET")
        case 5 where s[0] == "inApps" && s[1] == "v2" && s[2] == "refund" && s[3] == "lookup" && !s[4].isEmpty:
            self.init(.appleRefundHistory, [s[4]], method: m, expected: "GET")
        case 5 where Self.isPublisher(s) && s[4] == "orders:batchGet":
            self.init(.googleOrdersBatchGet, [s[3]], method: m, expected: "GET")
        case 6 where Self.isPublisher(s) && s[4] == "orders" && !s[5].isEmpty:
            self.init(.googleOrderGet, [s[3], s[5]], method: m, expected: "GET")
        case 5 where s[0] == "storage" && s[1] == "v1" && s[2] == "b" && s[4] == "o":
            self.init(.storageList, [s[3]], method: m, expected: "GET")
        case 6... where s[0] == "storage" && s[1] == "v1" && s[2] == "b" && s[4] == "o":
            // An encoded name is one segment; an unencoded one spans the rest of the path.
            self.init(.storageDownload, [s[3], s[5...].joined(separator: "/")], method: m, expected: "GET")
        case 6 where Self.isPublisher(s) && s[4] == "purchases" && s[5] == "voidedpurchases":
            self.init(.googleVoidedPurchases, [s[3]], method: m, expected: "GET")
        case 8 where Self.isPublisher(s) && s[4] == "purchases" && s[5] == "subscriptionsv2" && s[6] == "tokens":
            self.init(.googleSubscriptionGet, [s[3], s[7]], method: m, expected: "GET")
        case 9 where Self.isPublisher(s) && s[4] == "purchases" && s[5] == "subscriptions" && s[7] == "tokens"
            && s[8].hasSuffix(":acknowledge"):
            self.init(.googleAcknowledge, [s[3], s[6], String(s[8].dropLast(":acknowledge".count))],
                      method: m, expected: "POST")
        default:
            self.init(.unknown, method: m, expected: m)
        }
    }

    private static func isPublisher(_ s: [String]) -> Bool {
        s[0] == "androidpublisher" && s[1] == "v3" && s[2] == "applications"
    }
}
