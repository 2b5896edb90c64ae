extension PostgresConnection {
    /// Tries to take the session-level advisory lock named `name` without waiting.
    /// The name is hashed by the server (`hashtextextended`), so every process derives the same key.
    public func tryAdvisoryLock(_ name: String) throws -> Bool {
        let row = try query("SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked", [name]).first
        return try row?.decode(Bool.self, "locked") ?? false
    }

    /// Releases a session-level advisory lock taken with `tryAdvisoryLock`; false if it was not held.
    @discardableResult
    public func advisoryUnlock(_ name: String) throws -> Bool {
        let row = try query("SELECT pg_advisory_unlock(hashtextextended($1, 0)) AS unlocked", [name]).first
        return try row?.decode(Bool.self, "unlocked") ?? false
    }

    /// The backend pid currently holding the advisory lock `name`, if any.
    public func advisoryLockHolder(_ name: String) throws -> Int32? {
        let sql = """
            SELECT pid FROM pg_locks
            WHERE locktype = 'advisory' AND granted
              AND ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, 0)
            LIMIT 1
            """
        return try query(sql, [name]).first?.decode(Int32.self, "pid")
    }
}
