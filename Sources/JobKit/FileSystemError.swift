import Foundation

/// A file-system operation that failed: the operation, the path and the system's reason
/// (`cannot write /srv/out/mrr.csv: No space left on device`).
public struct FileSystemError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What was done: `write`, `create the folder`, `rename … to`, …
    public let operation: String
    /// The file or folder it was done to.
    public let path: String
    /// The system's reason.
    public let reason: String

    /// An error of `operation` on `path` for `reason`.
    public init(_ operation: String, _ path: String, reason: String) {
        self.operation = operation
        self.path = path
        self.reason = reason
    }

    /// The error of `operation` on `path` with the system's message for `code` (an errno).
    public static func posix(_ operation: String, _ path: String, errno code: Int32) -> FileSystemError {
        FileSystemError(operation, path, reason: String(cString: strerror(code)))
    }

    public var description: String { "cannot \(operation) \(path): \(reason)" }

    /// Runs `body`; a Foundation error it throws becomes a `FileSystemError` of `operation` on `path`.
    public static func perform<T>(_ operation: String, _ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as FileSystemError {
            throw error
        } catch {
            throw FileSystemError(operation, path, reason: reason(of: error))
        }
    }

    /// The system's reason for a Foundation error: the POSIX message of the error (or of its underlying error),
    /// else what its Cocoa code means, else its description.
    public static func reason(of error: Error) -> String {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(error.code))) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if let code = error.userInfo["errno"] as? Int32 { return String(cString: strerror(code)) }
        if error.domain == NSCocoaErrorDomain {
            switch CocoaError.Code(rawValue: error.code) {
            case .fileWriteOutOfSpace: return String(cString: strerror(ENOSPC))
            case .fileWriteVolumeReadOnly: return String(cString: strerror(EROFS))
            case .fileWriteNoPermission, .fileReadNoPermission: return String(cString: strerror(EACCES))
            case .fileNoSuchFile, .fileReadNoSuchFile: return String(cString: strerror(ENOENT))
            default: break
            }
        }
        return error.localizedDescription
    }

    /// A job's message for any error: a Foundation file error names its operation (read or write, from its code), its
    /// path and the reason, instead of `NSCocoaErrorDomain Code=512 "(null)"`; other errors as they describe themselves.
    public static func describe(_ error: Error) -> String {
        if let error = error as? FileSystemError { return error.description }
        let ns = error as NSError
        guard ns.domain == NSCocoaErrorDomain || ns.domain == NSPOSIXErrorDomain else { return "\(error)" }
        let path = (ns.userInfo[NSFilePathErrorKey] as? String) ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path ?? "(the system named no file)"
        let operation = (CocoaError.Code.fileReadUnknown.rawValue...CocoaError.Code.fileReadUnknown.rawValue + 255).contains(ns.code)
            && ns.domain == NSCocoaErrorDomain ? "read" : "write"
        return FileSystemError(operation, path, reason: reason(of: error)).description
    }
}

/// The check of an output folder before a job does its work.
public enum OutputFolder {
    /// Proves `folder` can be made and written by creating it when needed and creating and removing a probe file,
    /// then removes the folders it made (the job makes them again when it writes, so a run that fails later leaves
    /// nothing behind); a folder that cannot be made or written is a usage error (exit 2) naming `option`, the folder
    /// and the operation.
    public static func requireWritable(_ folder: URL, option: String) throws {
        var made: [String] = []
        var missing = folder.standardizedFileURL
        while !FileManager.default.fileExists(atPath: missing.path), missing.path != "/" {
            made.append(missing.path)
            missing = missing.deletingLastPathComponent()
        }
        defer { for path in made { rmdir(path) } }
        do {
            try FileSystemError.perform("create the folder", folder.path) {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            let probe = folder.appendingPathComponent(".write-check-\(getpid())")
            let descriptor = open(probe.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
            guard descriptor >= 0 else { throw FileSystemError.posix("write into the folder", folder.path, errno: errno) }
            close(descriptor)
            unlink(probe.path)
        } catch let error as FileSystemError {
            throw JobError.usage("\(option): \(error)")
        }
    }
}
