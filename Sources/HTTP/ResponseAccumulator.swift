import Foundation

/// Collects the body and header lines that libcurl's callbacks deliver during one perform, refusing a body larger
/// than `maxBodyBytes` as it arrives (the write callback then aborts the transfer).
final class ResponseAccumulator {
    var body = Data()
    var headers: [(name: String, value: String)] = []
    /// The largest body kept (decoded bytes, so a compressed bomb is caught too).
    let maxBodyBytes: Int
    /// Set when a body went past `maxBodyBytes` and the transfer was aborted.
    private(set) var exceededLimit = false

    init(maxBodyBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
    }

    /// Appends body bytes; false (abort) once the body would pass the limit.
    func appendBody(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard body.count + count <= maxBodyBytes else {
            exceededLimit = true
            return false
        }
        body.append(bytes, count: count)
        return true
    }

    /// Takes one raw header line. A new status line (after `100 Continue`) starts the list again.
    func addHeaderLine(_ bytes: UnsafeBufferPointer<UInt8>) {
        var line = String(decoding: bytes, as: UTF8.self)
        while let last = line.last, last.isNewline { line.removeLast() }
        if line.hasPrefix("HTTP/") {
            headers.removeAll()
            return
        }
        guard !line.isEmpty, let colon = line.firstIndex(of: ":") else { return }
        let name = String(line[..<colon]).trimmingCharacters(in: .whitespacesAndNewlines)
        let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespacesAndNewlines)
        if !name.isEmpty { headers.append((name, value)) }
    }

    /// The C write callback: appends body bytes to the accumulator passed as userdata. Returning fewer bytes than
    /// delivered makes libcurl abort the transfer with `CURLE_WRITE_ERROR`.
    static let writeCallback: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = { data, size, count, userdata in
        let length = size * count
        guard let data, let userdata, length > 0 else { return length }
        let accumulator = Unmanaged<ResponseAccumulator>.fromOpaque(userdata).takeUnretainedValue()
        let kept = data.withMemoryRebound(to: UInt8.self, capacity: length) { accumulator.appendBody($0, count: length) }
        return kept ? length : 0
    }

    /// The C header callback: hands each header line to the accumulator passed as userdata.
    static let headerCallback: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = { data, size, count, userdata in
        let length = size * count
        guard let data, let userdata, length > 0 else { return length }
        let accumulator = Unmanaged<ResponseAccumulator>.fromOpaque(userdata).takeUnretainedValue()
        data.withMemoryRebound(to: UInt8.self, capacity: length) {
            accumulator.addHeaderLine(UnsafeBufferPointer(start: $0, count: length))
        }
        return length
    }
}
