import Postgres

/// For one bulk load inside a transaction: drops the world tables' foreign keys and the indexes that back
/// no constraint, and afterwards recreates each from its own catalogue definition (`pg_get_constraintdef`,
/// `pg_get_indexdef`), so the schema the migrations made comes back unchanged. Sorted index builds and
/// one validation query per foreign key cost far less than maintaining them row by row during COPY.
/// Primary keys and unique constraints stay in place and are checked as rows arrive.
struct DeferredConstraints {
    /// Recreation statements: indexes first, then foreign keys.
    let recreate: [String]
    /// The tables whose user triggers are disabled during the load.
    var tables: [String] = []

    /// Drops the foreign keys and constraint-free indexes of `tables`; returns how to recreate them.
    static func drop(_ tables: [String], database: PostgresConnection) throws -> DeferredConstraints {
        let list = "{" + tables.joined(separator: ",") + "}"
        let rows = try database.query("""
            SELECT 1 AS phase, format('ALTER TABLE %s ADD CONSTRAINT %I %s', conrelid::regclass, conname,
                                      pg_get_constraintdef(oid)) AS create_sql,
                   format('ALTER TABLE %s DROP CONSTRAINT %I', conrelid::regclass, conname) AS drop_sql
              FROM pg_constraint WHERE contype = 'f' AND conrelid::regclass::text = ANY($1::text[])
            UNION ALL
            SELECT 0, pg_get_indexdef(i.indexrelid), format('DROP INDEX %s', i.indexrelid::regclass)
              FROM pg_index i
             WHERE i.indrelid::regclass::text = ANY($1::text[])
               AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
            ORDER BY 1, 2
            """, [list]).rows
        var recreate: [String] = []
        var drops: [String] = []
        for row in rows {
            recreate.append(try row.decode(String.self, "create_sql"))
            drops.append(try row.decode(String.self, "drop_sql"))
        }
        for statement in drops.reversed() { try database.execute(statement) }
        // Row triggers would look rows up through the dropped indexes (quadratic); their rules run set-based in `restore`.
        for table in tables { try database.execute("ALTER TABLE \(table) DISABLE TRIGGER USER") }
        return DeferredConstraints(recreate: recreate, tables: tables)
    }

    /// Builds the indexes and validates and adds the foreign keys again.
    func restore(database: PostgresConnection) throws {
        try database.execute("SET LOCAL maintenance_work_mem = '512MB'")
        for statement in recreate { try database.execute(statement) }
        for table in tables { try database.execute("ALTER TABLE \(table) ENABLE TRIGGER USER") }
        if tables.contains("billing_transaction") {
            _ = try database.query("SELECT billing_transaction_fill_refund_amounts() AS filled")
        }
    }
}
