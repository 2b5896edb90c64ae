import Postgres

/// What an exchange-rate import did.
public struct FXRateTally: Sendable, Equatable {
    /// New months.
    public var inserted = 0
    /// Same rate already there.
    public var unchanged = 0
    /// A different rate from the same source, replaced (audited).
    public var replaced = 0
    /// A rate from another source already holds the month: kept.
    public var otherSource = 0
}

/// Writes exchange rates into `fx_rate`: a new month is inserted; a different rate from the same source replaces
/// the old one with an `audit_log` entry; a month already set by another source is left as it is.
public struct FXRateWriter {
    /// The connection (callers wrap calls in a transaction).
    public let database: PostgresConnection
    /// `audit_log.actor`.
    public let actor: String

    /// Creates a writer.
    public init(database: PostgresConnection, actor: String) {
        self.database = database
        self.actor = actor
    }

    /// Applies `rows` in order and returns what happened.
    public func upsert(_ rows: [FXRateRow]) throws -> FXRateTally {
        var tally = FXRateTally()
        for row in rows {
            let key: [any PostgresEncodable] = [row.month, row.from, row.to]
            let existing = try database.query("""
                SELECT source, rate::text AS rate, rate = $4::numeric AS same FROM fx_rate
                WHERE month = $1::date AND from_currency = $2 AND to_currency = $3 FOR UPDATE
                """, key + [row.rate.description]).first
            guard let existing else {
                _ = try database.execute("""
                    INSERT INTO fx_rate (month, from_currency, to_currency, rate, source) VALUES ($1::date, $2, $3, $4::numeric, $5)
                    """, key + [row.rate.description, row.source])
                tally.inserted += 1
                continue
            }
            let source = try existing.decode(String.self, "source")
            if source != row.source { tally.otherSource += 1; continue }
            if try existing.decode(Bool.self, "same") { tally.unchanged += 1; continue }
            _ = try database.execute("""
                UPDATE fx_rate SET rate = $4::numeric WHERE month = $1::date AND from_currency = $2 AND to_currency = $3
                """, key + [row.rate.description])
            _ = try database.execute("""
                INSERT INTO audit_log (actor, action, entity, entity_id, detail)
                VALUES ($1, 'replace_fx_rate', 'fx_rate', $2, jsonb_build_object('source', $3::text, 'previous_rate', $4::text, 'new_rate', $5::text))
                """, [actor, "\(row.month)/\(row.from)/\(row.to)", row.source, try existing.decode(String.self, "rate"), row.rate.description])
            tally.replaced += 1
        }
        return tally
    }
}
