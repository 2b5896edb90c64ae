import Crypto
import Foundation
import HTTP

/// The Apple app the truth describes.
struct AppleAppIdentity: Sendable {
    let bundleId: String
    let appAppleId: Int64
    let environment: String

    /// The same app as Apple's sandbox host sees it.
    var sandbox: AppleAppIdentity {
        AppleAppIdentity(bundleId: bundleId, appAppleId: appAppleId, environment: "Sandbox")
    }

    /// The envelope fields Apple puts on list responses.
    var envelope: [String: JSONValue] {
        ["bundleId": .string(bundleId), "appAppleId": .integer(appAppleId), "environment": .string(environment)]
    }
}

/// Everything an endpoint implementation needs for one request.
struct RequestContext {
    let request: HTTPRequest
    let route: SimulatorRoute
    let session: SigningSession
    let state: SimulatorState
    let app: AppleAppIdentity
    let configuration: SimulatorConfiguration

    /// The request time.
    var now: Date { session.now }

    /// The first value of query parameter `name`.
    func query(_ name: String) -> String? {
        request.queryItems.first { $0.name == name }?.value
    }

    /// Every value of a repeated query parameter.
    func queryAll(_ name: String) -> [String] {
        request.queryItems.filter { $0.name == name }.map(\.value)
    }

    /// The query without `excluded` parameters, canonically ordered: the scope a page token is bound to.
    func queryScope(excluding excluded: Set<String>) -> String {
        request.queryItems.filter { !excluded.contains($0.name) }.map { "\($0.name)=\($0.value)" }.sorted()
            .joined(separator: "&")
    }
}

/// Splits `items` into the page starting at `offset` (at most `size`) and whether more follow.
func page<T>(_ items: [T], offset: Int, size: Int) -> (items: ArraySlice<T>, next: Int, hasMore: Bool) {
    let start = min(offset, items.count)
    let end = min(start + size, items.count)
    return (items[start..<end], end, end < items.count)
}
