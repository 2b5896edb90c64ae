import Foundation

/// Collects the body and header lines that libcurl's callbacks deliver during one perform.
final class ResponseAccumulator {
    var body = Data()
    var headers: [(name: String, value: String)] = []

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

    /// The C write callback: appends body bytes to the accumulator passed as userdata.
    static let writeCallback: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = { data, size, count, userdata in
        let length = size * count
        guard let data, let userdata, length > 0 else { return length }
        let accumulator = Unmanaged<ResponseAccumulator>.fromOpaque(userdata).takeUnretainedValue()
        data.withMemoryRebound(to: UInt8.self, capacity: length) { accumulator.body.append($0, count: length) }
        return length
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
