import Foundation
import HTTP
import HTTPServer
import Testing

/// Transport faults injected by the server become the client's typed errors.
@Suite struct HTTPFaultTests {
    @Test func slowServerTimesOut() throws {
        try withServer { _, base in
            let started = Date()
            let error = failure { try HTTPClient().send(HTTPRequest(method: "GET", url: base + "/slow"), timeout: HTTPTimeouts(connect: 1, total: 0.3)) }
            guard case .timeout(let seconds, _)? = error else { Issue.record("expected a timeout, got \(String(describing: error))"); return }
            #expect(seconds == 0.3)
            #expect(Date().timeIntervalSince(started) < 1.5)
        }
    }

    @Test func resetBecomesConnectionFailed() throws {
        try withServer { _, base in
            let error = failure { try HTTPClient().send(HTTPRequest(method: "GET", url: base + "/reset")) }
            guard case .connectionFailed? = error else { Issue.record("expected connectionFailed, got \(String(describing: error))"); return }
        }
    }

    @Test func truncatedBodyIsDetected() throws {
        try withServer { _, base in
            let error = failure { try HTTPClient().send(HTTPRequest(method: "GET", url: base + "/truncate")) }
            guard case .truncatedBody? = error else { Issue.record("expected truncatedBody, got \(String(describing: error))"); return }
        }
    }

    @Test func bodyPastTheLimitIsAbortedWhileReceiving() throws {
        try withServer { _, base in
            let client = HTTPClient(configuration: HTTPClientConfiguration(maxResponseBytes: 256 << 10))
            let error = failure { try client.send(HTTPRequest(method: "GET", url: base + "/large?mb=4")) }
            #expect(error == .responseTooLarge(limitBytes: 256 << 10))
            #expect(error?.isTransient == false, "a too-large answer is a failed call, not retried")
            // The same client still serves a body at the limit, and the default limit takes 4 MiB.
            let small = try HTTPClient(configuration: HTTPClientConfiguration(maxResponseBytes: 1 << 20))
                .send(HTTPRequest(method: "GET", url: base + "/large?mb=1"))
            #expect(small.body.count == 1 << 20)
            #expect(try client.send(HTTPRequest(method: "GET", url: base + "/echo")).status == 200)
            #expect(try HTTPClient().send(HTTPRequest(method: "GET", url: base + "/large?mb=4")).body.count == 4 << 20)
            #expect(HTTPClientConfiguration().maxResponseBytes == 8 << 20)
        }
    }

    @Test func refusedConnectionIsConnectionFailed() throws {
        let port = try withServer { server, _ in server.port } // stopped once the closure returns
        let error = failure { try HTTPClient().send(HTTPRequest(method: "GET", url: "http://127.0.0.1:\(port)/echo")) }
        guard case .connectionFailed? = error else { Issue.record("expected connectionFailed, got \(String(describing: error))"); return }
    }

    @Test func clientRecoversAfterFaults() throws {
        try withServer { _, base in
            let client = HTTPClient()
            _ = try? client.send(HTTPRequest(method: "GET", url: base + "/reset"))
            _ = try? client.send(HTTPRequest(method: "GET", url: base + "/truncate"))
            let response = try client.send(HTTPRequest(method: "GET", url: base + "/echo"))
            #expect(response.status == 200)
        }
    }
}

/// The HTTPError a call throws, or nil when it succeeds.
func failure(_ body: () throws -> HTTPResponse) -> HTTPError? {
    do {
        _ = try body()
        return nil
    } catch let error as HTTPError {
        return error
    } catch {
        Issue.record("not an HTTPError: \(error)")
        return nil
    }
}
