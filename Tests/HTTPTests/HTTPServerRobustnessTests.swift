import Foundation
import HTTP
import HTTPServer
import Testing

/// The server survives hostile and clumsy clients and keeps serving everyone else.
@Suite struct HTTPServerRobustnessTests {
    static let garbage: [(name: String, bytes: [UInt8])] = [
        ("binary noise", (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) } + [13, 10, 13, 10]),
        ("no version", Array("GET /echo\r\n\r\n".utf8)),
        ("bad version", Array("GET /echo HTTP/9.9\r\n\r\n".utf8)),
        ("header without colon", Array("GET /echo HTTP/1.1\r\nHost 1\r\n\r\n".utf8)),
        ("negative length", Array("POST /echo HTTP/1.1\r\nContent-Length: -5\r\n\r\n".utf8)),
        ("conflicting lengths", Array("POST /echo HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd".utf8)),
        ("length and chunked", Array("POST /echo HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)),
        ("bad chunk size", Array("POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".utf8)),
        ("space in name", Array("GET /echo HTTP/1.1\r\nBad Name: x\r\n\r\n".utf8)),
        ("folded header", Array("GET /echo HTTP/1.1\r\nX-A: 1\r\n  continued\r\n\r\n".utf8)),
        ("absolute target", Array("GET http://x/echo HTTP/1.1\r\n\r\n".utf8)),
    ]

    @Test(arguments: garbage.map(\.name))
    func malformedRequestsGet400AndAClose(_ name: String) throws {
        let bytes = try #require(Self.garbage.first { $0.name == name }?.bytes)
        try withServer { server, base in
            let connection = try RawConnection(port: server.port)
            connection.write(bytes)
            let reply = connection.readToEnd()
            #expect(reply.hasPrefix("HTTP/1.1 400") || reply.hasPrefix("HTTP/1.1 501"), "\(reply.prefix(60))")
            #expect(reply.contains("Connection: close"))
            #expect(try HTTPClient().send(HTTPRequest(method: "GET", url: base + "/echo")).status == 200)
        }
    }

    @Test func oversizedHeadIsRefused() throws {
        try withServer { server, _ in
            let connection = try RawConnection(port: server.port)
            connection.write("GET /echo HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 100_000))
            #expect(connection.readToEnd().hasPrefix("HTTP/1.1 431"))
        }
    }

    @Test func requestSplitAcrossManySmallWrites() throws {
        try withServer { server, _ in
            let connection = try RawConnection(port: server.port)
            let request = Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\nConnection: close\r\n\r\nhello world".utf8)
            for byte in request {
                connection.write([byte])
                usleep(500)
            }
            let reply = connection.readToEnd()
            #expect(reply.hasPrefix("HTTP/1.1 200 OK"))
            #expect(reply.hasSuffix("\r\n\r\nhello world"))
        }
    }

    @Test func chunkedBodiesAndPipelinedRequests() throws {
        try withServer { server, _ in
            let connection = try RawConnection(port: server.port)
            connection.write("POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n"
                + "GET /echo HTTP/1.1\r\nConnection: close\r\n\r\n")
            let reply = connection.readToEnd()
            #expect(reply.components(separatedBy: "HTTP/1.1 200 OK").count == 3)
            #expect(reply.contains("Content-Length: 11\r\n"))
            #expect(reply.contains("hello world"))
        }
    }

    @Test func http10ClosesUnlessAskedToKeepAlive() throws {
        try withServer { server, _ in
            let connection = try RawConnection(port: server.port)
            connection.write("GET /echo HTTP/1.0\r\n\r\n")
            let reply = connection.readToEnd()
            #expect(reply.hasPrefix("HTTP/1.1 200 OK"))
            #expect(reply.contains("Connection: close"))
        }
    }

    @Test func clientsThatDisconnectMidRequestDoNotHurtTheServer() throws {
        try withServer { server, base in
            for cut in ["GET /ec", "POST /echo HTTP/1.1\r\nContent-Length: 100\r\n\r\nonly-part", "POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nabc"] {
                let connection = try RawConnection(port: server.port)
                connection.write(cut)
                _ = connection // closed at the end of this iteration
            }
            let client = HTTPClient()
            for _ in 0..<5 {
                #expect(try client.send(HTTPRequest(method: "GET", url: base + "/echo")).status == 200)
            }
        }
    }

    @Test func idleConnectionsDoNotStarveNewOnes() throws {
        let handler = TestHandler()
        let server = try LoopbackHTTPServer(handler: handler, workerThreads: 2)
        try server.start()
        defer { server.stop() }
        // Two idle keep-alive connections occupy both workers; a third client must still be served.
        let idle = try (0..<2).map { _ in try RawConnection(port: server.port) }
        for connection in idle {
            connection.write("GET /echo HTTP/1.1\r\n\r\n")
            #expect(connection.read(until: "\r\n\r\n").hasPrefix("HTTP/1.1 200"))
        }
        let response = try HTTPClient().send(HTTPRequest(method: "GET", url: server.baseURL + "/echo"), timeout: HTTPTimeouts(connect: 2, total: 3))
        #expect(response.status == 200)
    }

    @Test func stopIsIdempotentAndRefusesRestart() throws {
        let server = try LoopbackHTTPServer(handler: TestHandler())
        try server.start()
        let connection = try RawConnection(port: server.port)
        connection.write("GET /echo HTTP/1.1\r\n\r\n")
        _ = connection.read(until: "\r\n\r\n")
        server.stop()
        server.stop()
        #expect(throws: HTTPServerError.stopped) { try server.start() }
        #expect(throws: HTTPServerError.notLoopback(host: "0.0.0.0")) { try LoopbackHTTPServer(handler: TestHandler(), host: "0.0.0.0") }
        #expect(throws: HTTPServerError.notLoopback(host: "10.0.0.1")) { try LoopbackHTTPServer(handler: TestHandler(), host: "10.0.0.1") }
    }

    @Test func ipv6LoopbackWorks() throws {
        guard let server = try? LoopbackHTTPServer(handler: TestHandler(), host: "::1") else { return } // no IPv6 here
        try server.start()
        defer { server.stop() }
        #expect(server.baseURL.hasPrefix("http://[::1]:"))
        #expect(try HTTPClient().send(HTTPRequest(method: "GET", url: server.baseURL + "/echo")).status == 200)
    }
}
