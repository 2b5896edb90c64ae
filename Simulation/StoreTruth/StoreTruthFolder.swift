import Crypto
import Foundation

/// Reads and writes a `StoreTruth` as a folder:
/// `apple.json` (app config), `apple-subscriptions.jsonl`, `apple-notifications.jsonl`,
/// `google.json` (package), `google-subscriptions.jsonl`, `google-voided.jsonl`, and `reports/…`.
/// JSON Lines keep large worlds streamable; keys are sorted so equal truths give equal bytes.
public enum StoreTruthFolder {
    /// Why a truth folder cannot be read.
    public struct ReadError: Error, CustomStringConvertible {
        public let description: String
    }

    private struct AppleConfig: Codable { let bundleId: String; let appAppleId: Int64; let environment: String }
    private struct GoogleConfig: Codable { let packageName: String }

    /// Writes `truth` into `folder` (report files are written by their producer under `reports/`).
    public static func write(_ truth: StoreTruth, to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(AppleConfig(bundleId: truth.apple.bundleId, appAppleId: truth.apple.appAppleId,
                                       environment: truth.apple.environment)).write(to: folder.appendingPathComponent("apple.json"))
        try encoder.encode(GoogleConfig(packageName: truth.google.packageName)).write(to: folder.appendingPathComponent("google.json"))
        try writeLines(truth.apple.subscriptions, to: folder.appendingPathComponent(appleSubscriptionsFile), StoreTruthLines.append)
        try writeLines(truth.apple.notifications, to: folder.appendingPathComponent(appleNotificationsFile), StoreTruthLines.append)
        try writeLines(truth.google.subscriptions, to: folder.appendingPathComponent(googleSubscriptionsFile), StoreTruthLines.append)
        try writeLines(truth.google.voidedPurchases, to: folder.appendingPathComponent(googleVoidedFile), StoreTruthLines.append)
    }

    /// The Apple subscriptions file (JSON Lines), for writers that stream a large truth batch by batch.
    public static let appleSubscriptionsFile = "apple-subscriptions.jsonl"
    /// The Apple notifications file (JSON Lines, ordered by signedDate).
    public static let appleNotificationsFile = "apple-notifications.jsonl"
    /// The Google purchase tokens file (JSON Lines).
    public static let googleSubscriptionsFile = "google-subscriptions.jsonl"
    /// The Google voided purchases file (JSON Lines, ordered by voidedTimeMillis).
    public static let googleVoidedFile = "google-voided.jsonl"

    /// Reads a truth folder; a bad line is an error naming the file and line number.
    public static func read(from folder: URL) throws -> StoreTruth {
        let decoder = JSONDecoder()
        let apple = try decoder.decode(AppleConfig.self, from: try Data(contentsOf: folder.appendingPathComponent("apple.json")))
        let google = try decoder.decode(GoogleConfig.self, from: try Data(contentsOf: folder.appendingPathComponent("google.json")))
        let reports = folder.appendingPathComponent("reports")
        let reportFiles = (FileManager.default.enumerator(atPath: reports.path)?.allObjects as? [String] ?? [])
            .filter { !isDirectory(reports.appendingPathComponent($0)) }.sorted()
        return StoreTruth(
            apple: AppleTruth(bundleId: apple.bundleId, appAppleId: apple.appAppleId, environment: apple.environment,
                              subscriptions: try readLines(folder.appendingPathComponent("apple-subscriptions.jsonl"), decoder),
                              notifications: try readLines(folder.appendingPathComponent("apple-notifications.jsonl"), decoder)),
            google: GoogleTruth(packageName: google.packageName,
                                subscriptions: try readLines(folder.appendingPathComponent("google-subscriptions.jsonl"), decoder),
                                voidedPurchases: try readLines(folder.appendingPathComponent("google-voided.jsonl"), decoder)),
            reportFiles: reportFiles)
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &directory) && directory.boolValue
    }

    private static func writeLines<T>(_ items: [T], to file: URL, _ append: (T, inout [UInt8]) -> Void) throws {
        var bytes: [UInt8] = []
        for item in items { append(item, &bytes) }
        try Data(bytes).write(to: file)
    }

    private static func readLines<T: Decodable>(_ file: URL, _ decoder: JSONDecoder) throws -> [T] {
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        let data = try Data(contentsOf: file)
        var items: [T] = []
        var lineNumber = 0
        for line in data.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            guard !line.isEmpty else { continue }
            do {
                items.append(try decoder.decode(T.self, from: Data(line)))
            } catch {
                throw ReadError(description: "\(file.lastPathComponent) line \(lineNumber): \(error)")
            }
        }
        return items
    }
}
