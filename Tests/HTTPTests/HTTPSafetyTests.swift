import Foundation
import HTTP
import Testing

/// The scheme rule, request validation and log masking, none of which may leak or touch the network.
@Suite struct HTTPSafetyTests {
    static let schemeCases: [(url: String, allowed: Bool)] = [
        ("http://127.0.0.1:1/x", true),
        ("http://127.200.3.4:1/x", true),
        ("http://localhost:1/x", true),
        ("http://LOCALHOST:1/x", true),
        ("http://[::1]:1/x", true),
        ("https://127.0.0.1:1/inApps/v1/x", true),
        ("http://api.storekit.apple.com/inApps/v1/x", false),
        ("http://10.255.255.1:9/x", false),
        ("http://127.evil.example/x", false),
        ("http://127.0.0.1.nip.io/x", false),
        ("http://127.0.0.1@evil.example/x", false),
        ("http://0x7f000001/x", false),
        ("http://128.0.0.1/x", false),
        ("HTTP://example.com/x", false),
    ]

    @Test(arguments: schemeCases)
    func plainHTTPOnlyForLoopback(_ url: String, _ allowed: Bool) {
        let error = failure { try HTTPClient().send(HTTPRequest(method: "GET", url: url), timeout: HTTPTimeouts(connect: 0.2, total: 0.2)) }
        if allowed {
            if case .insecureScheme? = error { Issue.record("\(url) was refused as insecure") }
        } else {
            guard case .insecureScheme? = error else { Issue.record("\(url): expected insecureScheme, got \(String(describing: error))"); return }
        }
    }

    @Test func insecureSchemeIsRefusedBeforeAnyIO() {
        let logs = Collector<HTTPExchangeLog>()
        let client = HTTPClient(configuration: HTTPClientConfiguration(log: { logs.append($0) }))
        let error = failure { try client.send(HTTPRequest(method: "GET", url: "http://10.255.255.1:9/never")) }
        #expect(error == .insecureScheme(host: "10.255.255.1"))
        #expect(logs.items.count == 1)
        #expect(logs.items.first?.bytesReceived == 0)
        #expect(logs.items.first?.latencyMilliseconds ?? 1000 < 100)
    }

    static let invalidRequests: [HTTPRequest] = [
        HTTPRequest(method: "GET", url: "ftp://127.0.0.1/file"),
        HTTPRequest(method: "GET", url: "not a url"),
        HTTPRequest(method: "GET", url: "/relative/only"),
        HTTPRequest(method: "GE T", url: "https://example.com/"),
        HTTPRequest(method: "GET", url: "https://example.com/", headers: [("X-Bad", "a\r\nInjected: 1")]),
        HTTPRequest(method: "GET", url: "https://example.com/", headers: [("Bad Name", "a")]),
    ]

    @Test(arguments: invalidRequests)
    func malformedRequestsAreRefusedLocally(_ request: HTTPRequest) {
        let error = failure { try HTTPClient().send(request) }
        switch error {
        case .invalidURL?, .invalidRequest?: break
        default: Issue.record("expected invalidURL or invalidRequest, got \(String(describing: error))")
        }
    }

    static let maskCases: [(url: String, masked: String)] = [
        ("https://api.storekit.apple.com/inApps/v1/transactions/2000000123456789",
         "https://api.storekit.apple.com/inApps/v1/transactions/2000…6789"),
        ("https://androidpublisher.googleapis.com/androidpublisher/v3/applications/com.example.app/purchases/subscriptionsv2/tokens/abcdefghijklmnopqrstuvwxyz.AO-J1Oz",
         "https://androidpublisher.googleapis.com/androidpublisher/v3/applications/com.example.app/purchases/subscriptionsv2/tokens/abcd…J1Oz"),
        ("https://x.example/purchases/subscriptions/monthly/tokens/abcdefghijklmnopqrstuvwxyz0123:acknowledge",
         "https://x.example/purchases/subscriptions/monthly/tokens/abcd…0123:acknowledge"),
        ("https://user:secret@x.example/inApps/v1/lookup/MQ5C7T2B9XK?paginationToken=f0e1d2c3-b4a5-9687-7869-5a4b3c2d1e0f&sort=ASCENDING",
         "https://x.example/inApps/v1/lookup/MQ5C…B9XK?paginationToken=f0e1…1e0f&sort=ASCENDING"),
        ("https://x.example/inApps/v2/history/1000000987654321?revision=abc&productId=monthly",
         "https://x.example/inApps/v2/history/1000…4321?revision=abc&productId=monthly"),
    ]

    @Test(arguments: maskCases)
    func urlsAreMaskedForLogs(_ url: String, _ masked: String) {
        #expect(LogMasking.maskURL(url) == masked)
    }

    @Test func logsCarryMaskedURLAndNeverTheAuthorizationValue() throws {
        let logs = Collector<HTTPExchangeLog>()
        let secret = "eyJhbGciOiJFUzI1NiJ9.secret-claims.signature"
        let token = "abcdefghijklmnopqrstuvwxyz0123456789"
        try withServer { _, base in
            let client = HTTPClient(configuration: HTTPClientConfiguration(log: { logs.append($0) }))
            let request = HTTPRequest(method: "POST", url: base + "/echo?token=\(token)",
                                      headers: [("Authorization", "Bearer \(secret)")], body: Data("body-secret".utf8))
            _ = try client.send(request)
            _ = try? client.send(HTTPRequest(method: "GET", url: base + "/missing/\(token)", headers: [("Authorization", "Bearer \(secret)")]))
        }
        let records = logs.items
        #expect(records.count == 2)
        let first = try #require(records.first)
        #expect(first.method == "POST")
        #expect(first.status == 200)
        #expect(first.bytesSent == 11)
        #expect(first.bytesReceived == 11)
        #expect(first.maskedURL.hasSuffix("/echo?token=abcd…6789"))
        for record in records {
            let everything = "\(record) \(record.line)"
            #expect(!everything.contains(secret))
            #expect(!everything.contains("secret-claims"))
            #expect(!everything.contains(token))
            #expect(!everything.contains("body-secret"))
        }
    }
}
