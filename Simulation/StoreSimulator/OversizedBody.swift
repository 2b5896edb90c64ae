import Foundation
import HTTP

/// The `oversized` fault's body.
enum OversizedBody {
    /// `response` with its body padded by spaces to `bytes` (JSON allows trailing whitespace); larger bodies are kept.
    static func padded(_ response: HTTPResponse, to bytes: Int) -> HTTPResponse {
        var padded = response
        if padded.body.count < bytes { padded.body.append(Data(repeating: 0x20, count: bytes - padded.body.count)) }
        return padded
    }
}
