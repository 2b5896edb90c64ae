import Crypto
import Foundation
import HTTP
import StoreTruth

/// Get Notification History, Request a Test Notification and Get Test Notification Status.
enum AppleNotificationAPI {
    /// How far back Get Notification History reaches: 180 days in production, 30 in sandbox.
    static func windowDays(environment: String) -> Int { environment == "Production" ? 180 : 30 }

    /// POST /inApps/v1/notifications/history[?paginationToken=] — 20 a page, oldest first by `signedDate`,
    /// `startDate` inclusive and `endDate` exclusive.
    static func history(_ context: RequestContext) throws -> HTTPResponse {
        guard let body = try? JSONValue.parse(context.request.body), body.members != nil else {
            return Responses.apple(.generalBadRequest)
        }
        guard let startDate = body.integer("startDate") else { return Responses.apple(.invalidStartDate) }
        guard let endDate = body.integer("endDate") else { return Responses.apple(.invalidEndDate) }
        guard startDate < endDate else { return Responses.apple(.startDateAfterEndDate) }
        let window = Int64(windowDays(environment: context.app.environment)) * 86_400_000
        guard startDate >= Responses.milliseconds(context.now) - window else {
            return Responses.apple(.startDateTooFarInPast)
        }
        let type = body.text("notificationType")
        let subtype = body.text("notificationSubtype")
        let transactionId = body.text("transactionId")
        if transactionId != nil, type != nil || subtype != nil { return Responses.apple(.multipleFilters) }
        if subtype != nil, type == nil { return Responses.apple(.invalidNotificationType) }
        let onlyFailures = body["onlyFailures"] == .bool(true)
        var originalTransactionId: String?
        if let transactionId {
            switch AppleSubscriptionAPI.find(transactionId, in: context) {
            case let .success(found): originalTransactionId = found.0.originalTransactionId
            case let .failure(error): return Responses.apple(error)
            }
        }
        let scope = String(decoding: Responses.encode(body), as: UTF8.self)
        let (notifications, matching) = context.state.appleNotificationHistory(key: context.app.environment + "|" + scope) { all in
            all.enumerated().filter { _, notification in
                let payload = notification.payload
                guard let date = payload.integer("signedDate"), date >= startDate, date < endDate else { return false }
                // Each environment has its own history: sandbox notifications are not in production's, and vice versa.
                if let environment = payload["data"]?.text("environment") ?? notification.transactionInfo?.text("environment"),
                   environment != context.app.environment { return false }
                if let type, payload.text("notificationType") != type { return false }
                if let subtype, payload.text("subtype") != subtype { return false }
                if let originalTransactionId,
                   notification.transactionInfo?.text("originalTransactionId") != originalTransactionId { return false }
                if onlyFailures, notification.sendAttempts.contains(where: { $0.text("sendAttemptResult") == "SUCCESS" }) {
                    return false
                }
                return true
            }.sorted { ($0.element.payload.integer("signedDate") ?? 0, $0.offset) < ($1.element.payload.integer("signedDate") ?? 0, $1.offset) }
            .map(\.offset)
        }
        var offset = 0
        if let token = context.query("paginationToken") {
            guard let decoded = PageToken.offset(token, kind: "notifications", scope: scope) else {
                return Responses.apple(.invalidPaginationToken)
            }
            offset = decoded
        }
        let slice = page(matching, offset: offset, size: 20)
        var response: [String: JSONValue] = [
            "notificationHistory": .array(try slice.items.map { try item(notifications[$0], context.session) }),
            "hasMore": .bool(slice.hasMore),
        ]
        if slice.hasMore { response["paginationToken"] = .string(PageToken.make("notifications", scope: scope, offset: slice.next)) }
        return Responses.json(200, .object(response))
    }

    /// `{signedPayload, sendAttempts}` for one notification.
    static func item(_ notification: AppleNotificationTruth, _ session: SigningSession) throws -> JSONValue {
        .object(["signedPayload": .string(try signedPayload(notification, session)),
                 "sendAttempts": .array(notification.sendAttempts)])
    }

    /// The notification payload with its transaction and renewal info signed into `data`, then signed itself.
    static func signedPayload(_ notification: AppleNotificationTruth, _ session: SigningSession) throws -> String {
        var payload = notification.payload
        if let data = payload["data"], data.members != nil {
            var signedData = data
            if let info = notification.transactionInfo {
                signedData = signedData.setting("signedTransactionInfo", .string(try session.sign(info, faultable: false)))
            }
            if let renewal = notification.renewalInfo {
                signedData = signedData.setting("signedRenewalInfo", .string(try session.sign(renewal, faultable: false)))
            }
            payload = payload.setting("data", signedData)
        }
        return try session.sign(payload)
    }

    /// POST /inApps/v1/notifications/test — records a TEST notification, delivers it to the configured notification
    /// URL (if any) and answers its token; Get Test Notification Status then shows that delivery's attempt.
    static func requestTest(_ context: RequestContext) throws -> HTTPResponse {
        let now = Responses.milliseconds(context.now)
        let payload: JSONValue = .object([
            "notificationType": .string("TEST"), "notificationUUID": .string(context.state.makeUUID()),
            "version": .string("2.0"), "signedDate": .integer(now), "data": .object(context.app.envelope),
        ])
        var notification = AppleNotificationTruth(payload: payload, transactionInfo: nil, renewalInfo: nil, sendAttempts: [])
        let result = try context.configuration.notificationURL.map { try TestNotificationSender.deliver(notification, to: $0, context) }
        notification.sendAttempts = [.object(["attemptDate": .integer(now), "sendAttemptResult": .string(result ?? "SUCCESS")])]
        let token = context.state.addTestNotification(notification, nowMilliseconds: now)
        return Responses.json(200, .object(["testNotificationToken": .string(token)]))
    }

    /// GET /inApps/v1/notifications/test/{token}
    static func testStatus(_ context: RequestContext) throws -> HTTPResponse {
        guard let notification = context.state.testNotification(context.route.parameters[0]) else {
            return Responses.apple(.testNotificationNotFound)
        }
        return Responses.json(200, try item(notification, context.session))
    }
}
