import Glibc
@testable import HTTPServer
import Testing

/// Stopping a server twice (the harnesses stop it, then its deinit does) must not touch its old listener's
/// descriptor number: the process hands that number to the next socket it opens, and the full suite once lost a
/// test's own PostgreSQL connection ("server closed the connection unexpectedly") to a second `shutdown` of it.
@Suite struct ServerStopTests {
    @Test func aSecondStopLeavesTheSocketNowHoldingTheListenersNumberAlone() throws {
        // Other suites open sockets meanwhile, so the freed number is not always ours to take: a few tries.
        for _ in 0..<20 {
            let server = try LoopbackHTTPServer(handler: TestHandler(), workerThreads: 1)
            try server.start()
            let number = server.listenerDescriptor
            server.stop()
            guard let pair = Self.socketPair(landingOn: number) else { continue }
            defer { close(pair.0); close(pair.1) }
            server.stop()
            #expect(Self.carries(from: pair.1, to: pair.0), "the socket that reused descriptor \(number) was shut down")
            #expect(Self.carries(from: pair.0, to: pair.1), "the socket that reused descriptor \(number) was shut down")
            return
        }
        Issue.record("in 20 tries the listener's number was never free to reuse")
    }

    /// A connected socket pair one of whose ends is `number` (first end), made by opening pairs until the kernel
    /// hands it out; every other pair is closed. Nil when another thread took the number first.
    static func socketPair(landingOn number: Int32) -> (Int32, Int32)? {
        var spare: [Int32] = []
        defer { spare.forEach { close($0) } }
        while spare.count < 256 {
            var ends: [Int32] = [-1, -1]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { return nil }
            if ends[0] == number { return (ends[0], ends[1]) }
            if ends[1] == number { return (ends[1], ends[0]) }
            spare += ends
            if ends.allSatisfy({ $0 > number }) { return nil }
        }
        return nil
    }

    /// True when one byte sent on `from` arrives on `to`.
    static func carries(from: Int32, to: Int32) -> Bool {
        var byte: UInt8 = 42
        guard send(from, &byte, 1, Int32(MSG_NOSIGNAL)) == 1 else { return false }
        var received: UInt8 = 0
        return recv(to, &received, 1, Int32(MSG_DONTWAIT)) == 1 && received == 42
    }
}
