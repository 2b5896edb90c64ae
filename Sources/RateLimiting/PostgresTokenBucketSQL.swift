/// The statements behind `PostgresTokenBucket`. Every time comes from the database server's clock.
enum PostgresTokenBucketSQL {
    /// Creates the bucket row, full, unless it exists. $1 key, $2 capacity, $3 refill/s, $4 daily budget.
    static let ensure = """
        INSERT INTO rate_limit_bucket (bucket_key, capacity, refill_per_second, tokens, refilled_at, daily_budget, daily_used, budget_day)
        VALUES ($1, $2, $3, $2, clock_timestamp(), $4, 0, NULL)
        ON CONFLICT (bucket_key) DO NOTHING
        """

    /// One acquire attempt, atomically: lock the row, refill by elapsed server time (never backwards),
    /// reset the daily count on a new UTC day, take a token when open, within budget and available.
    /// $1 key, $2 slack in seconds within which a token counts as available.
    static let acquire = """
        WITH cur AS (
            SELECT b.bucket_key, b.capacity, b.refill_per_second, b.tokens, b.refilled_at, b.blocked_until,
                   b.daily_budget, b.daily_used, b.budget_day, greatest(b.refilled_at, clock_timestamp()) AS t
            FROM rate_limit_bucket b WHERE b.bucket_key = $1 FOR UPDATE
        ), calc AS (
            SELECT cur.*,
                   least(capacity, tokens + extract(epoch FROM (t - refilled_at))::float8 * refill_per_second) AS avail,
                   (t AT TIME ZONE 'UTC')::date AS today
            FROM cur
        ), counted AS (
            SELECT calc.*,
                   CASE WHEN budget_day IS NOT DISTINCT FROM today THEN daily_used ELSE 0 END AS used,
                   (blocked_until IS NULL OR blocked_until <= t) AS open
            FROM calc
        ), decided AS (
            SELECT counted.*,
                   (daily_budget IS NULL OR used < daily_budget) AS within_budget,
                   open AND (daily_budget IS NULL OR used < daily_budget)
                        AND (1 - avail) / refill_per_second <= $2::float8 AS granted
            FROM counted
        )
        UPDATE rate_limit_bucket b SET
            tokens = d.avail - CASE WHEN d.granted THEN 1 ELSE 0 END,
            refilled_at = d.t,
            daily_used = d.used + CASE WHEN d.granted THEN 1 ELSE 0 END,
            budget_day = d.today
        FROM decided d
        WHERE b.bucket_key = d.bucket_key
        RETURNING d.granted, d.open, d.within_budget, b.tokens, b.refill_per_second, b.daily_budget,
                  extract(epoch FROM d.t)::float8 AS now_epoch,
                  extract(epoch FROM b.blocked_until)::float8 AS blocked_epoch,
                  extract(epoch FROM ((d.today + 1)::timestamp AT TIME ZONE 'UTC'))::float8 AS reset_epoch
        """

    /// Blocks until an instant given as UNIX seconds ($2); keeps a later existing block.
    static let blockUntil = """
        UPDATE rate_limit_bucket
        SET blocked_until = greatest(coalesce(blocked_until, to_timestamp($2::float8)), to_timestamp($2::float8))
        WHERE bucket_key = $1
        """

    /// Blocks for $2 seconds from the server's now; keeps a later existing block.
    static let blockFor = """
        UPDATE rate_limit_bucket
        SET blocked_until = greatest(coalesce(blocked_until, clock_timestamp() + make_interval(secs => $2::float8)),
                                     clock_timestamp() + make_interval(secs => $2::float8))
        WHERE bucket_key = $1
        """

    /// Replaces the limits of an existing row. $1 key, $2 capacity, $3 refill/s, $4 daily budget.
    static let reconfigure = """
        UPDATE rate_limit_bucket
        SET capacity = $2, refill_per_second = $3, daily_budget = $4, tokens = least(tokens, $2)
        WHERE bucket_key = $1
        """
}
