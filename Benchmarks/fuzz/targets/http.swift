// Fuzz target: the loopback HTTP server's request reader — the request-line and header parser directly, then the
// whole connection path (head, Content-Length or chunked body, keep-alive, pipelining) by sending the input to a
// running server over TCP and reading until it closes. Built and run by Benchmarks/fuzz/run.sh.
import Glibc
import HTTP
@testable import HTTPServer

/// Answers every request with its own body.
struct EchoHandler: HTTPHandler {
    func handle(_ request: HTTPRequest) -> HTTPServerAction { .respond(HTTPResponse(status: 200, body: request.body)) }
}

let server: LoopbackHTTPServer? = {
    guard let server = try? LoopbackHTTPServer(handler: EchoHandler(), workerThreads: 4), (try? server.start()) != nil else {
        return nil
    }
    return server
}()

/// Sends `bytes` on a new connection, half-closes, and reads until the server closes (or 2 s pass).
func exchange(_ bytes: UnsafeBufferPointer<UInt8>, port: UInt16) {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    var timeout = timeval(tv_sec: 2, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0, let base = bytes.baseAddress else { return }
    var sent = 0
    while sent < bytes.count {
        let count = send(descriptor, base + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
        if count <= 0 { break }
        sent += count
    }
    shutdown(descriptor, Int32(SHUT_WR))
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while buffer.withUnsafeMutableBytes({ recv(descriptor, $0.baseAddress, $0.count, 0) }) > 0 {}
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    _ = try? RequestHead(parsing: Array(bytes)[...], maxBody: 1 << 20)
    if let server, size > 0 { exchange(bytes, port: server.port) }
    return 0
}
