-- Reconciliation of the stores' report files (staging, 0010) against billing_transaction, and the month-end close.
-- Decisions are listed in docs/RECONCILIATION.md and docs/RUNBOOK.md ("Month-end close").

SET LOCAL TimeZone = 'UTC';

-- One reconcile of one provider's period. A rerun of the same provider and period supersedes the earlier run
-- (superseded_by set in the same transaction); the earlier run and its items are kept.
CREATE TABLE reconciliation_run (
    id                  bigserial PRIMARY KEY,
    provider            text NOT NULL CHECK (provider IN ('apple', 'google')),
    -- Google: calendar month YYYY-MM (US Pacific, the files' month); Apple: fiscal period as reportDate YYYY-MM.
    period              text NOT NULL CHECK (period ~ '^[0-9]{4}-[0-9]{2}$'),
    -- The UTC bounds of the period in the report's zone.
    starts_at           timestamptz NOT NULL,
    ends_at             timestamptz NOT NULL,
    -- Rows recorded after this instant are left out (the basis 'known as of'); the close instant for a closed period.
    known_at            timestamptz NOT NULL,
    -- The staging files read (the period's and its neighbours'): report_file ids and content SHA-256, in id order.
    report_files        jsonb NOT NULL,
    item_count          integer NOT NULL,
    -- SHA-256 of the run's CSV, which holds every item and the totals.
    content_sha256      char(64) NOT NULL,
    job_run_id          bigint,
    created_at          timestamptz NOT NULL DEFAULT clock_timestamp(),
    superseded_by       bigint REFERENCES reconciliation_run (id) DEFERRABLE INITIALLY DEFERRED,
    CHECK (starts_at < ends_at)
);
CREATE UNIQUE INDEX reconciliation_run_current_idx ON reconciliation_run (provider, period) WHERE superseded_by IS NULL;
CREATE INDEX reconciliation_run_superseded_by_idx ON reconciliation_run (superseded_by);

-- One compared unit: a Google order's charge or refund, or an Apple report cell. Exactly one category.
CREATE TABLE reconciliation_item (
    run_id              bigint NOT NULL REFERENCES reconciliation_run (id) ON DELETE CASCADE,
    line                integer NOT NULL,
    category            text NOT NULL CHECK (category IN ('matched', 'amount_mismatch', 'currency_mismatch',
                            'missing_in_database', 'missing_in_store_report', 'refund_not_reflected', 'duplicate',
                            'timing', 'test_purchase_excluded')),
    -- Google: the order ID (renewals ..N); Apple: product|country|currency|customer price micros|S or R.
    grain_key           text NOT NULL,
    -- charge / refund (Google); sale / return (Apple).
    side                text NOT NULL CHECK (side IN ('charge', 'refund', 'sale', 'return')),
    product_id          text NOT NULL,
    country             text NOT NULL,
    -- The currency of the amounts (the report's when the report has the unit, else the database's).
    currency            char(3) NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    database_currency   char(3) CHECK (database_currency ~ '^[A-Z]{3}$'),
    report_units        bigint NOT NULL,
    database_units      bigint NOT NULL,
    report_gross_micros bigint NOT NULL,
    database_gross_micros bigint NOT NULL,
    -- report − database, in `currency`; items of one run sum to the run's variance per currency.
    variance_micros     bigint NOT NULL,
    store_fee_micros    bigint NOT NULL,
    tax_micros          bigint NOT NULL,
    net_micros          bigint NOT NULL,
    -- A database row of an earlier, closed period recorded after its close (prior-period adjustment).
    prior_period_adjustment boolean NOT NULL DEFAULT false,
    adjustment_period   text,
    detail              text NOT NULL DEFAULT '',
    PRIMARY KEY (run_id, line)
);
CREATE INDEX reconciliation_item_category_idx ON reconciliation_item (run_id, category);

-- Month-end close: one row per close; a reopen sets reopened_at and the reason (also in audit_log).
CREATE TABLE period_close (
    id              bigserial PRIMARY KEY,
    -- The calendar month finance closes: Google's month and Apple's fiscal period ending in that month.
    period          text NOT NULL CHECK (period ~ '^[0-9]{4}-[0-9]{2}$'),
    closed_at       timestamptz NOT NULL,
    closed_by       text NOT NULL,
    reopened_at     timestamptz,
    reopen_reason   text,
    CHECK ((reopened_at IS NULL) = (reopen_reason IS NULL))
);
CREATE UNIQUE INDEX period_close_open_idx ON period_close (period) WHERE reopened_at IS NULL;

-- The instants a close locks, per provider: billing_transaction rows effective in [starts_at, ends_at).
CREATE TABLE period_lock (
    close_id        bigint NOT NULL REFERENCES period_close (id) ON DELETE CASCADE,
    provider        billing_provider NOT NULL,
    report_period   text NOT NULL,
    starts_at       timestamptz NOT NULL,
    ends_at         timestamptz NOT NULL,
    run_id          bigint REFERENCES reconciliation_run (id),
    PRIMARY KEY (close_id, provider),
    CHECK (starts_at < ends_at)
);
CREATE INDEX period_lock_range_idx ON period_lock (provider, starts_at, ends_at);
CREATE INDEX period_lock_run_id_idx ON period_lock (run_id);

-- What a close froze: each reconciliation CSV and report file, with its content SHA-256 and bytes.
CREATE TABLE period_snapshot (
    close_id        bigint NOT NULL REFERENCES period_close (id) ON DELETE CASCADE,
    name            text NOT NULL,
    content_sha256  char(64) NOT NULL,
    byte_count      bigint NOT NULL,
    content         bytea NOT NULL,
    PRIMARY KEY (close_id, name)
);

-- The lock: rows effective in a closed period cannot change or disappear; inserting a late row stays allowed
-- (its recorded_at is after the close, so the 'known at close' basis still reproduces the closed numbers).
CREATE FUNCTION billing_transaction_closed_period() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    locked text;
BEGIN
    -- Redacting the raw payload (retention, erasure) changes no reported fact: every other column stays locked.
    IF TG_OP = 'UPDATE' AND (to_jsonb(NEW) - 'raw_payload') = (to_jsonb(OLD) - 'raw_payload') THEN
        RETURN NEW;
    END IF;
    SELECT c.period INTO locked
    FROM period_lock l JOIN period_close c ON c.id = l.close_id
    WHERE c.reopened_at IS NULL AND l.provider = OLD.provider
      AND OLD.effective_at >= l.starts_at AND OLD.effective_at < l.ends_at
    LIMIT 1;
    IF locked IS NULL AND TG_OP = 'UPDATE' THEN
        SELECT c.period INTO locked
        FROM period_lock l JOIN period_close c ON c.id = l.close_id
        WHERE c.reopened_at IS NULL AND l.provider = NEW.provider
          AND NEW.effective_at >= l.starts_at AND NEW.effective_at < l.ends_at
        LIMIT 1;
    END IF;
    IF locked IS NOT NULL THEN
        RAISE EXCEPTION 'billing_transaction % is in closed period % (reopen it with close-period --reopen)',
            OLD.transaction_key, locked USING ERRCODE = 'check_violation';
    END IF;
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;
CREATE TRIGGER billing_transaction_closed_period_trg BEFORE UPDATE OR DELETE ON billing_transaction
    FOR EACH ROW EXECUTE FUNCTION billing_transaction_closed_period();
