import Foundation
import HTTP

/// Serves the requests of one connection, one at a time, until it closes or must be reset.
struct ConnectionSession {
    /// How the worker ends the connection.
    enum Ending {
        case close
        case reset
    }

    static let maxHeadBytes = 65_536
    static let maxBodyBytes = 256 * 1_048_576

    let descriptor: Int32
    let core: ServerCore
    private var reader: ConnectionReader

    init(descriptor: Int32, core: ServerCore) {
        self.descriptor = descriptor
        self.core = core
        reader = ConnectionReader(descriptor: descriptor, core: core)
    }

    mutating func run() -> Ending {
        while true {
            reader.compact()
            do {
                try reader.awaitRequest()
                let head = try RequestHead(parsing: try reader.readHead(limit: Self.maxHeadBytes), maxBody: Self.maxBodyBytes)
                if head.expectsContinue && head.framing != .none && !reader.hasBufferedBytes {
                    guard SocketIO.sendAll(descriptor, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return .close }
                }
                let body = try readBody(head.framing)
                let request = HTTPRequest(method: head.method, url: head.target, headers: head.headers, body: body)
                guard let ending = respond(to: request, head: head) else { continue }
                return ending
            } catch let rejection as RequestHead.Rejection {
                _ = ResponseWriter.write(ResponseWriter.error(rejection.status, rejection.reason), to: descriptor,
                                         close: true, http10KeepAlive: false, omitBody: false)
                return .close
            } catch ReadFailure.tooLarge {
                _ = ResponseWriter.write(ResponseWriter.error(431, "request head too large"), to: descriptor,
                                         close: true, http10KeepAlive: false, omitBody: false)
                return .close
            } catch ReadFailure.malformed(let reason) {
                _ = ResponseWriter.write(ResponseWriter.error(400, reason), to: descriptor,
                                         close: true, http10KeepAlive: false, omitBody: false)
                return .close
            } catch {
                return .close
            }
        }
    }

    /// Runs the handler and carries out its action; nil means "keep the connection for the next request".
    private func respond(to request: HTTPRequest, head: RequestHead) -> Ending? {
        let close = !head.keepAlive || core.isStopping
        let omitBody = head.method == "HEAD"
        switch core.handler.handle(request) {
        case .respond(let response):
            let written = ResponseWriter.write(response, to: descriptor, close: close, http10KeepAlive: head.isHTTP10, omitBody: omitBody)
            return written && !close ? nil : .close
        case .delay(let seconds, let response):
            guard core.pause(seconds: seconds) else { return .close }
            let written = ResponseWriter.write(response, to: descriptor, close: close, http10KeepAlive: head.isHTTP10, omitBody: omitBody)
            return written && !close ? nil : .close
        case .resetConnection:
            return .reset
        case .truncateBody(let response, let bytes):
            _ = ResponseWriter.write(response, to: descriptor, close: true, http10KeepAlive: false, omitBody: false,
                                     bodyBytes: max(0, bytes))
            return .close
        }
    }

    private mutating func readBody(_ framing: RequestHead.Framing) throws -> Data {
        switch framing {
        case .none:
            return Data()
        case .length(let count):
            return Data(try reader.readExact(count))
        case .chunked:
            var body = Data()
            while true {
                let line = try reader.readLine(limit: 4096)
                let sizeText = String(decoding: line.prefix { $0 != UInt8(ascii: ";") }, as: UTF8.self).trimmingASCII(" \t")
                guard !sizeText.isEmpty, sizeText.count <= 8, let size = Int(sizeText, radix: 16), size >= 0 else {
                    throw ReadFailure.malformed("invalid chunk size")
                }
                if size == 0 { break }
                guard body.count + size <= Self.maxBodyBytes else { throw RequestHead.Rejection(status: 413, reason: "body too large") }
                body.append(contentsOf: try reader.readExact(size))
                guard try reader.readExact(2).elementsEqual([13, 10]) else { throw ReadFailure.malformed("chunk without CRLF") }
            }
            while try !reader.readLine(limit: 8192).isEmpty {} // trailer fields, ignored
            return body
        }
    }
}
