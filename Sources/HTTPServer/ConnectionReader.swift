import Glibc

/// Why reading a request stopped.
enum ReadFailure: Error {
    /// The peer closed or the connection broke.
    case closed
    /// Nothing arrived in time, or the connection was idle while other connections waited.
    case idle
    /// The request is too large to accept (head or body).
    case tooLarge
    /// The bytes are not valid HTTP.
    case malformed(String)
}

/// Buffered reads from one connection, with deadlines and stop checks between poll slices.
struct ConnectionReader {
    let descriptor: Int32
    let core: ServerCore
    private var buffer: [UInt8] = []
    private var start = 0
    private var scratch = [UInt8](repeating: 0, count: 65_536)

    init(descriptor: Int32, core: ServerCore) {
        self.descriptor = descriptor
        self.core = core
    }

    var hasBufferedBytes: Bool { start < buffer.count }

    /// Drops consumed bytes so the buffer does not grow across keep-alive requests.
    mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1_048_576)
            start = 0
        } else if start > 65_536 {
            buffer.removeFirst(start)
            start = 0
        }
    }

    /// Waits for the first byte of the next request. Gives up (`.idle`) after the keep-alive timeout,
    /// or sooner when the connection is idle and other connections wait for a worker.
    mutating func awaitRequest() throws(ReadFailure) {
        if hasBufferedBytes { return }
        try fill(timeoutMilliseconds: core.keepAliveMilliseconds, yieldWhenOthersWait: true)
    }

    /// Reads more bytes into the buffer.
    private mutating func fill(timeoutMilliseconds: Int, yieldWhenOthersWait: Bool = false) throws(ReadFailure) {
        var waited = 0
        while true {
            let count = scratch.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                buffer.append(contentsOf: scratch[0..<count])
                return
            }
            if count == 0 { throw .closed }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { throw .closed }
            if core.isStopping { throw .closed }
            if yieldWhenOthersWait && waited >= 20 && core.hasWaitingConnections { throw .idle }
            guard waited < timeoutMilliseconds else { throw .idle }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let slice = 20
            let ready = poll(&entry, 1, Int32(slice))
            if ready == 0 { waited += slice }
        }
    }

    /// The request head up to and including the blank line.
    mutating func readHead(limit: Int) throws(ReadFailure) -> ArraySlice<UInt8> {
        var scanFrom = start
        while true {
            if let end = find([13, 10, 13, 10], from: scanFrom) {
                let head = buffer[start..<end]
                start = end + 4
                return head
            }
            if buffer.count - start > limit { throw .tooLarge }
            scanFrom = max(start, buffer.count - 3)
            try fill(timeoutMilliseconds: core.requestTimeoutMilliseconds)
        }
    }

    /// One CRLF-terminated line (without the CRLF), for chunked bodies.
    mutating func readLine(limit: Int) throws(ReadFailure) -> ArraySlice<UInt8> {
        var scanFrom = start
        while true {
            if let end = find([13, 10], from: scanFrom) {
                let line = buffer[start..<end]
                start = end + 2
                return line
            }
            if buffer.count - start > limit { throw .malformed("line too long") }
            scanFrom = max(start, buffer.count - 1)
            try fill(timeoutMilliseconds: core.requestTimeoutMilliseconds)
        }
    }

    /// Exactly `count` bytes.
    mutating func readExact(_ count: Int) throws(ReadFailure) -> ArraySlice<UInt8> {
        while buffer.count - start < count {
            try fill(timeoutMilliseconds: core.requestTimeoutMilliseconds)
        }
        let bytes = buffer[start..<(start + count)]
        start += count
        return bytes
    }

    private func find(_ pattern: [UInt8], from: Int) -> Int? {
        guard buffer.count - from >= pattern.count else { return nil }
        var index = from
        let last = buffer.count - pattern.count
        while index <= last {
            if buffer[index] == pattern[0] {
                var matched = true
                for offset in 1..<pattern.count where buffer[index + offset] != pattern[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }
}
