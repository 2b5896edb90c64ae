import Glibc

/// The few socket operations the server needs, with EINTR and partial writes handled.
enum SocketIO {
    /// A listening TCP socket on a loopback address, and the port it is bound to.
    static func listen(host: String, port: UInt16) throws(HTTPServerError) -> (descriptor: Int32, port: UInt16) {
        let family: Int32
        var storage = sockaddr_storage()
        var length: socklen_t
        let name = host == "localhost" ? "127.0.0.1" : host.trimmingBrackets()
        if name.contains(":") {
            var address = sockaddr_in6()
            guard inet_pton(AF_INET6, name, &address.sin6_addr) == 1, name == "::1" || isIPv6Loopback(address.sin6_addr) else {
                throw .notLoopback(host: host)
            }
            family = AF_INET6
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in6.self) }
        } else {
            var address = sockaddr_in()
            guard inet_pton(AF_INET, name, &address.sin_addr) == 1, UInt32(bigEndian: address.sin_addr.s_addr) >> 24 == 127 else {
                throw .notLoopback(host: host)
            }
            family = AF_INET
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in.self) }
        }
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .lastSocketError("socket") }
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else {
            let error = HTTPServerError.lastSocketError("bind \(host):\(port)")
            close(descriptor)
            throw error
        }
        guard Glibc.listen(descriptor, 1024) == 0 else {
            let error = HTTPServerError.lastSocketError("listen")
            close(descriptor)
            throw error
        }
        length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            let error = HTTPServerError.lastSocketError("getsockname")
            close(descriptor)
            throw error
        }
        let boundPort = withUnsafeBytes(of: &storage) { raw -> UInt16 in
            family == AF_INET6 ? UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port)
                : UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port)
        }
        return (descriptor, boundPort)
    }

    private static func isIPv6Loopback(_ address: in6_addr) -> Bool {
        withUnsafeBytes(of: address) { bytes in bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1 }
    }

    /// Sends every byte, waiting for buffer space as needed; false when the peer is gone.
    static func sendAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard var pointer = bytes.baseAddress else { return true }
        var remaining = bytes.count
        while remaining > 0 {
            let written = send(descriptor, pointer, remaining, Int32(MSG_NOSIGNAL))
            if written > 0 {
                pointer += written
                remaining -= written
            } else if written < 0 && errno == EINTR {
                continue
            } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&entry, 1, 1000)
            } else {
                return false
            }
        }
        return true
    }

    /// Sends the bytes of an array.
    static func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { sendAll(descriptor, $0) }
    }

    /// Turns off Nagle's algorithm so small responses leave at once.
    static func setNoDelay(_ descriptor: Int32) {
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Closes with SO_LINGER 0, so the peer receives a TCP RST.
    static func resetAndClose(_ descriptor: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        close(descriptor)
    }

    /// Half-closes, drains what the peer still sends for a short while (so our last bytes are not
    /// destroyed by an RST for unread input), then closes.
    static func gracefulClose(_ descriptor: Int32) {
        shutdown(descriptor, Int32(SHUT_WR))
        var scratch = [UInt8](repeating: 0, count: 16_384)
        var waitedMilliseconds: Int32 = 0
        var drained = 0
        while waitedMilliseconds < 500 && drained < 1_048_576 {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, 50)
            if ready == 0 { waitedMilliseconds += 50; continue }
            if ready < 0 && errno == EINTR { continue }
            let count = scratch.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            drained += count
        }
        close(descriptor)
    }
}

extension String {
    func trimmingBrackets() -> String {
        hasPrefix("[") && hasSuffix("]") ? String(dropFirst().dropLast()) : self
    }
}
