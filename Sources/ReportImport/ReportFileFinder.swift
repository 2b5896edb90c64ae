import Foundation
import StoreExports

/// A report file found on disk, with the kind its name denotes.
public struct FoundReportFile: Sendable, Equatable {
    /// Path of the file.
    public let path: String
    /// The kind `StoreReportKind(fileName:)` gives its name.
    public let kind: StoreReportKind
}

/// Expands files and folders (recursively) into report files; names no store uses are listed apart.
public enum ReportFileFinder {
    /// The report files under `paths` sorted by path, and the paths of files whose names are not reports.
    public static func find(_ paths: [String]) throws -> (reports: [FoundReportFile], ignored: [String]) {
        var reports: [FoundReportFile] = []
        var ignored: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw ReportImportFailure.missingPath(path)
            }
            let files: [String]
            if isFolder.boolValue {
                let base = URL(fileURLWithPath: path)
                files = (manager.enumerator(atPath: path)?.compactMap { $0 as? String } ?? [])
                    .map { base.appendingPathComponent($0).path }
                    .filter { file in
                        var folder: ObjCBool = false
                        return manager.fileExists(atPath: file, isDirectory: &folder) && !folder.boolValue
                    }
            } else {
                files = [path]
            }
            for file in files {
                let name = URL(fileURLWithPath: file).lastPathComponent
                if name.hasPrefix(".") { continue }
                if let kind = StoreReportKind(fileName: name) {
                    reports.append(FoundReportFile(path: file, kind: kind))
                } else {
                    ignored.append(file)
                }
            }
        }
        return (reports.sorted { $0.path < $1.path }, ignored.sorted())
    }
}

/// Why an import could not start (as opposed to a rejected file).
public enum ReportImportFailure: Error, CustomStringConvertible, Sendable {
    /// A path given on the command line does not exist.
    case missingPath(String)

    public var description: String {
        switch self {
        case .missingPath(let path): return "no such file or folder: \(path)"
        }
    }
}
