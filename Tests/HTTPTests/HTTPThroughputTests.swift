import Foundation
import HTTP
import HTTPServer
import Testing

/// Many threads through one client against one server: every answer correct; the rate is printed, not asserted.
@Suite struct HTTPThroughputTests {
    struct Trivial: HTTPHandler {
        func handle(_ request: HTTPRequest) -> HTTPServerAction {
            .respond(HTTPResponse(status: 200, headers: [("Content-Type", "text/plain")], body: Data(request.url.utf8)))
        }
    }

    @Test func eightThreadsOverKeepAlive() throws {
        let server = try LoopbackHTTPServer(handler: Trivial())
        try server.start()
        defer { server.stop() }
        let client = HTTPClient()
        let perThread = 1_000
        let failures = Collector<String>()
        let started = Date()
        onThreads(8) { thread in
            for index in 0..<perThread {
                let path = "/t\(thread)/r\(index)"
                do {
                    let response = try client.send(HTTPRequest(method: "GET", url: server.baseURL + path))
                    if response.status != 200 || response.body != Data(path.utf8) { failures.append(path) }
                } catch {
                    failures.append("\(path): \(error)")
                }
            }
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(failures.items.isEmpty, "\(failures.items.prefix(3))")
        #expect(server.acceptedConnectionCount <= 16)
        print("HTTP throughput: \(8 * perThread) requests in \(String(format: "%.2f", elapsed)) s = \(Int(Double(8 * perThread) / elapsed)) requests/s over \(server.acceptedConnectionCount) connections")
    }
}
