import COpenSSL

/// Reads and clears OpenSSL's thread-local error queue.
package enum OpenSSLErrorQueue {
    /// All queued error lines joined with "; ", oldest first; the queue is left empty.
    static func drain() -> String {
        var lines: [String] = []
        var buffer = [CChar](repeating: 0, count: 256)
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            ERR_error_string_n(code, &buffer, buffer.count)
            lines.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return lines.joined(separator: "; ")
    }

    /// A `CryptoError.openSSL` for `operation` carrying the drained queue text.
    package static func error(_ operation: String) -> CryptoError {
        .openSSL(operation: operation, message: drain())
    }

    /// Empties the queue after an expected failure (for example a signature that does not verify).
    static func clear() {
        ERR_clear_error()
    }
}
