import Crypto
import Foundation
import Postgres

/// The content of every table in the database except run bookkeeping, as canonical rows, with a SHA-256 per table.
///
/// Two runs over the same world are compared row for row (a multiset: a duplicated row is a difference, not hidden by
/// a set). What legitimately differs between two runs is taken out:
/// - bookkeeping tables (`excludedTables`): which calls, claims, leases and limiter tokens a run used, not state;
/// - surrogate keys and write times (`ignoredColumns`): a row's own `id`, `job_run_id`, and the wall-clock stamps of
///   when a row was written or verified;
/// - uuids minted by a run: a subscription, inbound event, history row or price change is named by its store
///   identity instead (`names`), so a row pointing at a subscription the chain created compares by that identity;
/// - `report_file` ids (a sequence, advanced by a transaction that a kill rolled back) are named by the file.
struct StateDigest: Equatable {
    /// Run bookkeeping, not compared: the run log, the store-call log, the limiter's buckets, re-query claims
    /// and leases, the migration ledger, and build-reports' log of the history's changes (which transaction wrote
    /// which subscription's rows: a rerun's retries write it again under other transaction ids, migration 0053).
    static let excludedTables: Set<String> = ["job_run", "store_query", "rate_limit_bucket", "requery_work_item", "schema_migration",
                                              "report_history_change"]
    /// Columns that hold a surrogate key or the wall-clock time a row was written, in every table.
    static let ignoredColumns: Set<String> = ["id", "job_run_id", "created_at", "updated_at", "last_verified_at", "recorded_at",
                                              "imported_at", "detected_at", "received_at", "processing_attempts", "processing_error"]
    /// Wall-clock columns of one table only (elsewhere the same name is a store time), and the report stores' input
    /// digests: a stored month's `inputs` covers the history rows' `recorded_at` (migration 0040: the `known` basis
    /// reads it), which two runs record at different instants, and both it and a subscription's span digest hash
    /// enum columns per column (migration 0041), and an enum value's hash is that of its OID, which each database
    /// assigns itself; stable within a database, not between two. The month history's stored row part (migration 0054)
    /// hashes the same columns as `inputs`, and the span set's `snapshot` names the transaction ids of the run that
    /// stored it (migration 0053). The stored rows and counts themselves are compared.
    static let ignoredByTable: [String: Set<String>] = ["audit_log": ["at"], "inbound_webhook_event": ["processed_at"],
                                                        "report_stored_month": ["stored_at", "inputs"],
                                                        "report_stored_span_input": ["hash_sum"],
                                                        "report_stored_month_history": ["hash_sum"],
                                                        "report_stored_span_set": ["snapshot"]]

    /// Canonical rows (sorted JSON objects, sorted) per table.
    let rows: [String: [String]]

    private init(rows: [String: [String]]) {
        self.rows = rows
    }

    /// Reads every table of `database` but the excluded ones and `excluding`; a partitioned table once, through its
    /// parent (its partitions' rows are the parent's).
    init(_ database: PostgresConnection, excluding: Set<String> = []) throws {
        let tables = try database.query("""
            SELECT c.relname::text AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1
            """).rows.map { try $0.decode(String.self, "t") }.filter { !Self.excludedTables.contains($0) && !excluding.contains($0) }
        let names = try Self.names(database)
        var rows: [String: [String]] = [:]
        for table in tables {
            let ignored = Self.ignoredColumns.union(Self.ignoredByTable[table] ?? [])
            let texts = try database.query("SELECT to_jsonb(t)::text AS row FROM \(table) t").rows.map { try $0.decode(String.self, "row") }
            rows[table] = try texts.map { try Self.canonical($0, ignoring: ignored, names: names) }.sorted()
        }
        self.rows = rows
    }

    /// The row count per table.
    var counts: [String: Int] { rows.mapValues(\.count) }

    /// SHA-256 over one table's canonical rows.
    func digest(_ table: String) -> String {
        SHA256Digest.hex(Array((rows[table] ?? []).joined(separator: "\n").utf8))
    }

    /// SHA-256 over every table's digest, in table order: one figure for the whole database.
    var digest: String {
        SHA256Digest.hex(Array(rows.keys.sorted().map { "\($0)=\(digest($0))" }.joined(separator: "\n").utf8))
    }

    /// Per table that differs: rows only in `self`, rows only in `other` (counting duplicates), and one example of each.
    func differences(from other: StateDigest) -> [String] {
        Set(rows.keys).union(other.rows.keys).sorted().compactMap { table in
            let mine = Self.multiset(rows[table] ?? []), theirs = Self.multiset(other.rows[table] ?? [])
            var onlyMine: [String] = [], onlyTheirs: [String] = []
            for (row, n) in mine where n > theirs[row, default: 0] { onlyMine += Array(repeating: row, count: n - theirs[row, default: 0]) }
            for (row, n) in theirs where n > mine[row, default: 0] { onlyTheirs += Array(repeating: row, count: n - mine[row, default: 0]) }
            guard !onlyMine.isEmpty || !onlyTheirs.isEmpty else { return nil }
            return "\(table): \(onlyMine.count) rows only here, \(onlyTheirs.count) only there, e.g. "
                + "\(onlyMine.sorted().prefix(1).map { $0.prefix(700) }) vs \(onlyTheirs.sorted().prefix(1).map { $0.prefix(700) })"
        }
    }

    /// Rows that occur more than once in a table whose rows must be unique once surrogate keys are dropped.
    func duplicates(in table: String) -> [String] {
        Self.multiset(rows[table] ?? []).filter { $0.value > 1 }.map(\.key).sorted()
    }

    private static func multiset(_ rows: [String]) -> [String: Int] {
        rows.reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }

    /// Store-side names for the uuids and file ids a run mints.
    private static func names(_ database: PostgresConnection) throws -> [String: String] {
        var names: [String: String] = [:]
        let queries = [
            """
            SELECT s.id::text AS id, 'subscription:' || coalesce(a.original_transaction_id,
                   (SELECT min(g.purchase_token) FROM google_purchase_token g WHERE g.subscription_id = s.id), s.id::text) AS name
            FROM subscription s LEFT JOIN apple_subscription_identity a ON a.subscription_id = s.id
            """,
            "SELECT id::text AS id, 'event:' || provider_event_id AS name FROM inbound_webhook_event",
            "SELECT id::text AS id, 'transaction:' || transaction_key AS name FROM billing_transaction",
            "SELECT id::text AS id, 'price_change:' || subscription_id::text || ':' || coalesce(source_event_key, effective_at::text, '') AS name FROM subscription_price_change",
            "SELECT 'file#' || id::text AS id, 'file:' || file_name || ':' || content_sha256 AS name FROM report_file",
        ]
        for sql in queries {
            for row in try database.query(sql).rows { names[try row.decode(String.self, "id")] = try row.decode(String.self, "name") }
        }
        // A price change names its subscription by the subscription's store name, too.
        for (id, name) in names where name.hasPrefix("price_change:") {
            let rest = name.dropFirst("price_change:".count)
            let subscription = String(rest.prefix(36))
            names[id] = "price_change:" + (names[subscription] ?? subscription) + rest.dropFirst(36)
        }
        return names
    }

    /// `json` (one row) without the ignored columns, with minted ids replaced by names, re-encoded with sorted keys.
    private static func canonical(_ json: String, ignoring ignored: Set<String>, names: [String: String]) throws -> String {
        guard var object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else { return json }
        for key in ignored { object.removeValue(forKey: key) }
        for (key, value) in object {
            if let text = value as? String, let name = names[text] {
                object[key] = name
            } else if let number = value as? NSNumber, key == "report_file_id" || key == "replaced_by" {
                object[key] = names["file#" + number.stringValue] ?? number.stringValue
            }
        }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return ChainState.withoutSignatures(String(decoding: data, as: UTF8.self))
    }
}

extension StateDigest {
    /// The same state with every row of `table` passed through `transform` (nil drops the row); the crash test names the
    /// finance jobs' sequence ids with it (`FinanceRunNames`).
    func mappingRows(of table: String, _ transform: (String) -> String?) -> StateDigest {
        var copy = rows
        copy[table] = (rows[table] ?? []).compactMap(transform).sorted()
        return StateDigest(rows: copy)
    }
}
