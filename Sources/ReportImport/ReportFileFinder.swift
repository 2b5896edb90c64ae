import Foundation
import StoreExports

/// A report file found on disk, with the kind its name denotes.
public struct FoundReportFile: Sendable, Equatable {
    /// Path of the file.
    public let path: String
    /// The kind `StoreReportKind(fileName:)` gives its name.
    public let kind: StoreReportKind
}

/// A file found on disk that the importer does not read, with what its name says it is.
public struct UnimportableFile: Sendable, Equatable {
    /// Path of the file.
    public let path: String
    /// What the name denotes (`Apple Subscription Offer Code Redemption report`, …) or `not a report file name`.
    public let kind: String

    /// `name (kind)`.
    public var listing: String { URL(fileURLWithPath: path).lastPathComponent + " (\(kind))" }

    /// What a file name the importer does not read is: a report kind a store delivers that is not imported, or none.
    public static func kind(ofName name: String) -> String {
        if name.hasPrefix("Subscription_Offer_Code_") { return "Apple Subscription Offer Code Redemption report, not imported" }
        if name.hasPrefix("Winback_Eligibility_Report_") { return "Apple Win-back Eligibility report, not imported" }
        return "not a report file name"
    }
}

/// What the given paths held: the report files (by path) and every other file (by path).
public struct FoundFiles: Sendable, Equatable {
    /// Report files the importer reads, sorted by path.
    public var reports: [FoundReportFile]
    /// Files it does not read, sorted by path.
    public var unimportable: [UnimportableFile]
    /// Folders entered a second time through a symbolic link (the loop guard skipped them).
    public var loopsSkipped: [String]

    /// One line saying what was found, for a run that found nothing to import.
    public var summary: String {
        if reports.isEmpty && unimportable.isEmpty { return "no files" }
        var parts = ["\(reports.count) importable file(s)"]
        if !unimportable.isEmpty { parts.append("\(unimportable.count) other file(s): " + unimportable.map(\.listing).joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }
}

/// Expands files and folders into report files: folders are searched recursively and symbolic links are followed
/// (the folder given may itself be a link, and so may its sub-folders), each real folder entered once.
public enum ReportFileFinder {
    /// The files under `paths`; a path that does not exist throws `ReportImportFailure.missingPath`.
    public static func find(_ paths: [String]) throws -> FoundFiles {
        var found = FoundFiles(reports: [], unimportable: [], loopsSkipped: [])
        var visited: Set<String> = []
        for path in paths {
            guard isFolder(path) != nil else { throw ReportImportFailure.missingPath(path) }
            try collect(path, into: &found, visited: &visited)
        }
        found.reports.sort { $0.path < $1.path }
        found.unimportable.sort { $0.path < $1.path }
        return found
    }

    /// True for a folder, false for another file, nil when nothing (or a dangling link) is at `path`; links followed.
    static func isFolder(_ path: String) -> Bool? {
        var folder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &folder) else { return nil }
        return folder.boolValue
    }

    private static func collect(_ path: String, into found: inout FoundFiles, visited: inout Set<String>) throws {
        guard let folder = isFolder(path) else { return }
        let name = URL(fileURLWithPath: path).lastPathComponent
        guard folder else {
            if name.hasPrefix(".") { return }
            if let kind = StoreReportKind(fileName: name) {
                found.reports.append(FoundReportFile(path: path, kind: kind))
            } else {
                found.unimportable.append(UnimportableFile(path: path, kind: UnimportableFile.kind(ofName: name)))
            }
            return
        }
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard visited.insert(real).inserted else { found.loopsSkipped.append(path); return }
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw ReportImportFailure.unreadableFolder(path, reason: (error as NSError).localizedFailureReason ?? "\(error)")
        }
        for entry in entries.sorted() where !entry.hasPrefix(".") {
            try collect(URL(fileURLWithPath: path).appendingPathComponent(entry).path, into: &found, visited: &visited)
        }
    }
}

/// Why an import could not start (as opposed to a rejected file).
public enum ReportImportFailure: Error, CustomStringConvertible, Sendable {
    /// A path given on the command line does not exist.
    case missingPath(String)
    /// A folder could not be listed.
    case unreadableFolder(String, reason: String)

    public var description: String {
        switch self {
        case .missingPath(let path): return "no such file or folder: \(path)"
        case .unreadableFolder(let path, let reason): return "cannot list the folder \(path): \(reason)"
        }
    }
}
