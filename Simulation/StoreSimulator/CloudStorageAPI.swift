import Crypto
import Foundation
import HTTP

/// Cloud Storage JSON API over the truth's `reports/google/…` files: object `<name>` is `reports/google/<name>`.
enum CloudStorageAPI {
    static let root = "google/"

    /// GET /storage/v1/b/{bucket}/o?prefix=&pageToken=&maxResults=
    static func list(_ context: RequestContext, files: ReportFiles) -> HTTPResponse {
        let bucket = context.route.parameters[0]
        guard bucket == context.configuration.googleBucket else { return noSuchBucket(bucket) }
        let prefix = context.query("prefix") ?? ""
        var size = 1000
        if let text = context.query("maxResults") {
            guard let value = Int(text), value > 0 else {
                return Responses.google(400, "INVALID_ARGUMENT", "Invalid maxResults.", reason: "invalid", domain: "global")
            }
            size = min(value, 1000)
        }
        let names = files.paths.filter { $0.hasPrefix(root) }.map { String($0.dropFirst(root.count)) }
            .filter { $0.hasPrefix(prefix) }.sorted()
        var offset = 0
        if let token = context.query("pageToken") {
            guard let decoded = PageToken.offset(token, kind: "objects", scope: bucket + "/" + prefix) else {
                return Responses.google(400, "INVALID_ARGUMENT", "Invalid page token.", reason: "invalid", domain: "global")
            }
            offset = decoded
        }
        let slice = page(names, offset: offset, size: size)
        var body: [String: JSONValue] = ["kind": .string("storage#objects")]
        let items = slice.items.compactMap { metadata(bucket: bucket, name: $0, files: files) }
        if !items.isEmpty { body["items"] = .array(items) }
        if slice.hasMore {
            body["nextPageToken"] = .string(PageToken.make("objects", scope: bucket + "/" + prefix, offset: slice.next))
        }
        return Responses.json(200, .object(body))
    }

    /// GET /storage/v1/b/{bucket}/o/{url-encoded name}[?alt=media]
    static func object(_ context: RequestContext, files: ReportFiles) -> HTTPResponse {
        let (bucket, name) = (context.route.parameters[0], context.route.parameters[1])
        guard bucket == context.configuration.googleBucket else { return noSuchBucket(bucket) }
        guard context.query("alt") == "media" else {
            guard let metadata = metadata(bucket: bucket, name: name, files: files) else { return noSuchObject(bucket, name) }
            return Responses.json(200, metadata)
        }
        guard let data = files.read(root + name) else { return noSuchObject(bucket, name) }
        return Responses.bytes(data, contentType: contentType(name))
    }

    static func metadata(bucket: String, name: String, files: ReportFiles) -> JSONValue? {
        guard let attributes = files.attributes(root + name) else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return .object([
            "kind": .string("storage#object"), "bucket": .string(bucket), "name": .string(name),
            "size": .string(String(attributes.size)), "updated": .string(formatter.string(from: attributes.modified)),
            "contentType": .string(contentType(name)),
        ])
    }

    static func contentType(_ name: String) -> String {
        if name.hasSuffix(".zip") { return "application/zip" }
        if name.hasSuffix(".csv") { return "text/csv" }
        return "application/octet-stream"
    }

    static func noSuchBucket(_ bucket: String) -> HTTPResponse {
        Responses.google(404, "NOT_FOUND", "The specified bucket does not exist.", reason: "notFound", domain: "global")
    }

    static func noSuchObject(_ bucket: String, _ name: String) -> HTTPResponse {
        Responses.google(404, "NOT_FOUND", "No such object: \(bucket)/\(name)", reason: "notFound", domain: "global")
    }
}
