import Foundation
import Glibc
import HTTP
import HTTPServer

/// Routes used by the tests: echo, fixed bodies, and each fault action.
struct TestHandler: HTTPHandler {
    var gzipBlob = Data()

    func handle(_ request: HTTPRequest) -> HTTPServerAction {
        switch request.path {
        case "/echo":
            var headers: [(name: String, value: String)] = [("X-Method", request.method), ("X-Target", request.url)]
            for header in request.headers { headers.append(("X-Echo-\(header.name)", header.value)) }
            return .respond(HTTPResponse(status: 200, headers: headers, body: request.body))
        case "/status":
            let code = request.queryItems.first { $0.name == "code" }.flatMap { Int($0.value) } ?? 200
            return .respond(HTTPResponse(status: code, headers: [("Retry-After", "1700000000123"), ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")]))
        case "/large":
            let megabytes = request.queryItems.first { $0.name == "mb" }.flatMap { Int($0.value) } ?? 1
            return .respond(HTTPResponse(status: 200, body: Self.pattern(count: megabytes * 1_048_576)))
        case "/gzip":
            return .respond(HTTPResponse(status: 200, headers: [("Content-Encoding", "gzip"), ("Content-Type", "text/plain")], body: gzipBlob))
        case "/slow":
            return .delay(seconds: 2, then: HTTPResponse(status: 200))
        case "/reset":
            return .resetConnection
        case "/truncate":
            return .truncateBody(HTTPResponse(status: 200, body: Self.pattern(count: 10_000)), bytes: 100)
        default:
            return .respond(HTTPResponse(status: 404, body: Data("no route \(request.path)".utf8)))
        }
    }

    /// Deterministic bytes that compress poorly enough to be a fair large-body test.
    static func pattern(count: Int) -> Data {
        var bytes = [UInt8](repeating: 0, count: count)
        var state: UInt32 = 2_463_534_242
        for index in 0..<count {
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            bytes[index] = UInt8(truncatingIfNeeded: state)
        }
        return Data(bytes)
    }
}

/// A started server on 127.0.0.1:0, stopped when the test's scope ends.
func withServer<T>(_ handler: any HTTPHandler = TestHandler(), workers: Int = 16,
                   _ body: (LoopbackHTTPServer, String) throws -> T) throws -> T {
    let server = try LoopbackHTTPServer(handler: handler)
    try server.start()
    defer { server.stop() }
    return try body(server, server.baseURL)
}

/// Compresses with the gzip command line tool.
func gzipped(_ data: Data) throws -> Data {
    let input = FileManager.default.temporaryDirectory.appendingPathComponent("http-test-\(UUID().uuidString).txt")
    try data.write(to: input)
    defer { try? FileManager.default.removeItem(at: input) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
    process.arguments = ["-c", input.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return output
}

/// Runs `body(index)` on `count` real threads and waits for all of them.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            body(index)
            group.leave()
        }
        thread.start()
    }
    group.wait()
}

/// A collector that tests can share with @Sendable closures.
final class Collector<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Element] = []
    func append(_ element: Element) { lock.withLock { storage.append(element) } }
    var items: [Element] { lock.withLock { storage } }
}
