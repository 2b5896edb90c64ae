import Crypto
import Foundation
import StoreTruth

/// Writes a world's truth folder batch by batch, holding only sort keys in memory: subscriptions and tokens
/// are appended in order; each batch's notifications go to a sorted run file, merged at the end into the
/// truth's order (signedDate, subscription, position). Produces the same bytes as `StoreTruthFolder.write`.
final class TruthStream {
    let folder: URL
    private let runsFolder: URL
    private let appleSubscriptions: FileHandle
    private let googleSubscriptions: FileHandle
    private var runs: [[TruthBatch.NotificationKey]] = []
    private var voided: [JSONValue] = []
    private(set) var counts: [String: Int] = ["apple_subscriptions": 0, "apple_notifications": 0, "google_tokens": 0]

    /// Starts the folder: config files and empty line files.
    init(folder: URL, catalogue: WorldCatalogue) throws {
        self.folder = folder
        try StoreTruthFolder.write(StoreTruth(
            apple: AppleTruth(bundleId: catalogue.bundleId, appAppleId: catalogue.appAppleId, environment: "Production",
                              subscriptions: [], notifications: []),
            google: GoogleTruth(packageName: catalogue.packageName)), to: folder)
        runsFolder = folder.appendingPathComponent(".notification-runs")
        try? FileManager.default.removeItem(at: runsFolder)
        try FileManager.default.createDirectory(at: runsFolder, withIntermediateDirectories: true)
        appleSubscriptions = try FileHandle(forWritingTo: folder.appendingPathComponent(StoreTruthFolder.appleSubscriptionsFile))
        googleSubscriptions = try FileHandle(forWritingTo: folder.appendingPathComponent(StoreTruthFolder.googleSubscriptionsFile))
    }

    /// Appends one batch (batches in subscription order).
    func add(_ batch: TruthBatch) throws {
        try appleSubscriptions.write(contentsOf: batch.appleSubscriptions)
        try googleSubscriptions.write(contentsOf: batch.googleSubscriptions)
        try Data(batch.notifications).write(to: runsFolder.appendingPathComponent("run\(runs.count)"))
        runs.append(batch.keys)
        for subscription in batch.subscriptions {
            counts["apple_subscriptions", default: 0] += subscription.apple == nil ? 0 : 1
            counts["google_tokens", default: 0] += subscription.googleTokens.count
            voided += subscription.googleVoided
        }
        counts["apple_notifications", default: 0] += batch.keys.count
    }

    /// Merges the notification runs, writes the voided purchases and closes the files.
    func finish() throws {
        try appleSubscriptions.close()
        try googleSubscriptions.close()
        let sortedVoided = World.sortedVoided(voided)
        counts["google_voided"] = sortedVoided.count
        var voidedBytes: [UInt8] = []
        for item in sortedVoided { StoreTruthLines.append(item, to: &voidedBytes) }
        try Data(voidedBytes).write(to: folder.appendingPathComponent(StoreTruthFolder.googleVoidedFile))
        try mergeRuns()
        try FileManager.default.removeItem(at: runsFolder)
    }

    private func mergeRuns() throws {
        let output = try FileHandle(forWritingTo: folder.appendingPathComponent(StoreTruthFolder.appleNotificationsFile))
        defer { try? output.close() }
        let files = try runs.indices.map { try Data(contentsOf: runsFolder.appendingPathComponent("run\($0)"), options: .alwaysMapped) }
        var next = Array(repeating: 0, count: runs.count)
        var offsets = Array(repeating: 0, count: runs.count)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 22)
        while true {
            var best = -1
            for run in runs.indices where next[run] < runs[run].count {
                if best < 0 || runs[run][next[run]] < runs[best][next[best]] { best = run }
            }
            guard best >= 0 else { break }
            let length = runs[best][next[best]].length
            files[best].withUnsafeBytes { raw in
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[offsets[best]..<(offsets[best] + length)]))
            }
            offsets[best] += length
            next[best] += 1
            if buffer.count >= 1 << 22 {
                try output.write(contentsOf: buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try output.write(contentsOf: buffer)
    }
}
