import Foundation
import HTTP
import HTTPServer
import Testing

/// The client and the loopback server together: methods, headers, query, bodies, gzip, reuse.
@Suite struct HTTPClientServerTests {
    struct MethodCase: Sendable, CustomStringConvertible {
        let method: String
        let body: String
        let expectsBodyBack: Bool
        var description: String { method }
    }

    static let methods: [MethodCase] = [
        MethodCase(method: "GET", body: "", expectsBodyBack: false),
        MethodCase(method: "POST", body: "{\"a\":1}", expectsBodyBack: true),
        MethodCase(method: "POST", body: "", expectsBodyBack: false),
        MethodCase(method: "PUT", body: "put-body", expectsBodyBack: true),
        MethodCase(method: "PATCH", body: "patch-body", expectsBodyBack: true),
        MethodCase(method: "DELETE", body: "", expectsBodyBack: false),
        MethodCase(method: "OPTIONS", body: "", expectsBodyBack: false),
        MethodCase(method: "HEAD", body: "", expectsBodyBack: false),
    ]

    @Test(arguments: methods)
    func methodsReachTheServer(_ testCase: MethodCase) throws {
        try withServer { _, base in
            let client = HTTPClient()
            let request = HTTPRequest(method: testCase.method, url: base + "/echo", body: Data(testCase.body.utf8))
            let response = try client.send(request)
            #expect(response.status == 200)
            #expect(response.header("X-Method") == testCase.method)
            if testCase.expectsBodyBack {
                #expect(String(decoding: response.body, as: UTF8.self) == testCase.body)
                #expect(response.header("X-Echo-Content-Length") == String(testCase.body.utf8.count))
            } else {
                #expect(response.body.isEmpty)
            }
        }
    }

    @Test func headersAndQueryTravelBothWays() throws {
        try withServer { _, base in
            let client = HTTPClient()
            let url = base + "/echo?status=1&status=2&name=a%20b"
            let request = HTTPRequest(method: "GET", url: url, headers: [("X-Custom", "value 1"), ("Accept", "application/json"), ("X-Empty", "")])
            let response = try client.send(request)
            #expect(response.header("x-echo-x-custom") == "value 1")
            #expect(response.header("X-Echo-Accept") == "application/json")
            #expect(response.header("X-Echo-X-Empty") == "")
            #expect(response.header("X-Echo-User-Agent") == "iap-pipeline/1.0")
            let target = try #require(response.header("X-Target"))
            let items = HTTPRequest(method: "GET", url: target).queryItems
            #expect(items.map(\.name) == ["status", "status", "name"])
            #expect(items.map(\.value) == ["1", "2", "a b"])
        }
    }

    @Test func allResponseHeadersAreKeptInOrder() throws {
        try withServer { _, base in
            let response = try HTTPClient().send(HTTPRequest(method: "GET", url: base + "/status?code=429"))
            #expect(response.status == 429)
            #expect(response.header("retry-after") == "1700000000123")
            #expect(response.headers.filter { $0.name == "Set-Cookie" }.map(\.value) == ["a=1", "b=2"])
            #expect(response.header("Content-Length") == "0")
        }
    }

    @Test func largeBodiesBothWays() throws {
        try withServer { _, base in
            let client = HTTPClient()
            let upload = TestHandler.pattern(count: 5 * 1_048_576 + 17)
            let echoed = try client.send(HTTPRequest(method: "POST", url: base + "/echo", body: upload))
            #expect(echoed.body == upload)
            let download = try client.send(HTTPRequest(method: "GET", url: base + "/large?mb=8"))
            #expect(download.body.count == 8 * 1_048_576)
            #expect(download.body == TestHandler.pattern(count: 8 * 1_048_576))
        }
    }

    @Test func gzipBodiesAreDecompressed() throws {
        let text = String(repeating: "subscription renewed; ", count: 2_000)
        let handler = TestHandler(gzipBlob: try gzipped(Data(text.utf8)))
        #expect(handler.gzipBlob.count < text.utf8.count / 10)
        var logs: [HTTPExchangeLog] = []
        let collector = Collector<HTTPExchangeLog>()
        try withServer(handler) { _, base in
            let client = HTTPClient(configuration: HTTPClientConfiguration(log: { collector.append($0) }))
            let response = try client.send(HTTPRequest(method: "GET", url: base + "/gzip"))
            #expect(String(decoding: response.body, as: UTF8.self) == text)
            logs = collector.items
        }
        #expect(logs.first?.bytesReceived == handler.gzipBlob.count)
    }

    @Test func keepAliveReusesOneConnection() throws {
        try withServer { server, base in
            let client = HTTPClient()
            for index in 0..<100 {
                let response = try client.send(HTTPRequest(method: "POST", url: base + "/echo", body: Data("n\(index)".utf8)))
                #expect(String(decoding: response.body, as: UTF8.self) == "n\(index)")
            }
            #expect(server.acceptedConnectionCount == 1)
        }
    }

    @Test func connectionCloseIsHonoured() throws {
        try withServer { server, base in
            let client = HTTPClient()
            for _ in 0..<3 {
                let response = try client.send(HTTPRequest(method: "GET", url: base + "/echo", headers: [("Connection", "close")]))
                #expect(response.header("Connection") == "close")
            }
            #expect(server.acceptedConnectionCount == 3)
        }
    }

    @Test func manyThreadsShareOneClient() throws {
        let failures = Collector<String>()
        try withServer { _, base in
            let client = HTTPClient()
            onThreads(8) { thread in
                for index in 0..<50 {
                    let body = "t\(thread)-\(index)"
                    do {
                        let response = try client.send(HTTPRequest(method: "POST", url: base.replacingOccurrences(of: "127.0.0.1", with: "localhost") + "/echo", body: Data(body.utf8)))
                        if String(decoding: response.body, as: UTF8.self) != body { failures.append("mismatch \(body)") }
                    } catch {
                        failures.append("\(error)")
                    }
                }
            }
        }
        #expect(failures.items.isEmpty, "\(failures.items.prefix(3))")
    }
}
