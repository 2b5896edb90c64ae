// bench-copy-load: generates a BillingTransaction CSV and loads it through Postgres.copyIn,
// so Benchmarks/run.sh can time it against `psql \copy` of the same file.
//   bench-copy-load generate <file> <rows> <subscription-uuid>
//   bench-copy-load load <file>
import Foundation
import Postgres

let columns = "subscription_id, provider, event_type, transaction_key, effective_at, expires_at, order_id, amount_micros, currency_code, country_code, is_test, raw_payload"

func generate(path: String, rows: Int, subscription: String) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil), let out = FileHandle(forWritingAtPath: path) else {
        throw PostgresError(.usage, message: "cannot create \(path)")
    }
    defer { try? out.close() }
    var chunk = ""
    let start = Date(timeIntervalSince1970: 1_735_689_600)
    for n in 0..<rows {
        let effective = start.addingTimeInterval(Double(n) * 30)
        let expires = effective.addingTimeInterval(30 * 86_400)
        let payload = #"{""transactionId"": ""\#(2_000_000_000 + n)"", ""price"": 4990, ""currency"": ""USD""}"#
        chunk += "\(subscription),APPLE,RENEWED,APPLE:1000:\(2_000_000_000 + n),\(PostgresTimestamp.format(effective)),"
            + "\(PostgresTimestamp.format(expires)),MT\(n),4990000,USD,USA,f,\"\(payload)\"\n"
        if chunk.utf8.count > 1 << 20 { out.write(Data(chunk.utf8)); chunk = "" }
    }
    out.write(Data(chunk.utf8))
}

func load(path: String) throws -> Int {
    guard let input = FileHandle(forReadingAtPath: path) else { throw PostgresError(.usage, message: "cannot read \(path)") }
    defer { try? input.close() }
    let db = try PostgresConnection(configuration: .fromEnvironment(ProcessInfo.processInfo.environment, applicationName: "bench-copy-load"))
    defer { db.close() }
    return try db.copyIn("COPY billing_transaction (\(columns)) FROM STDIN WITH (FORMAT csv)") { copy in
        while let data = try input.read(upToCount: 1 << 20), !data.isEmpty {
            try data.withUnsafeBytes { try copy.writeRaw($0) }
        }
    }
}

let arguments = CommandLine.arguments
do {
    switch (arguments.count > 1 ? arguments[1] : "", arguments.count) {
    case ("generate", 5):
        try generate(path: arguments[2], rows: Int(arguments[3]) ?? 0, subscription: arguments[4])
    case ("load", 3):
        let started = Date()
        let rows = try load(path: arguments[2])
        print("loaded \(rows) rows in \(String(format: "%.3f", Date().timeIntervalSince(started))) s")
    case ("columns", 2):
        print(columns)
    default:
        FileHandle.standardError.write(Data("usage: bench-copy-load generate <file> <rows> <subscription-uuid> | load <file> | columns\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("bench-copy-load: \(error)\n".utf8))
    exit(1)
}
