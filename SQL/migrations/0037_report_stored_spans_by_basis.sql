-- build-reports' stored spans and span digests (0031, unlogged since 0034) are partitioned by basis (issue 31;
-- Reports/README.md, "Incremental runs"), so a run that recomputed every span of a basis (--full, an empty store, new
-- span functions) replaces that basis's partitions whole: TRUNCATE them, insert without the index, build the index
-- after. At 200k subscriptions (2.5M spans) deleting the old rows and inserting the new ones through the index was
-- most of a --full run's storing time. An incremental run still deletes and inserts its touched subscriptions' rows.
-- TRUNCATE is not MVCC-safe: a run whose snapshot is older than a committed TRUNCATE sees the truncated partitions
-- empty. So a run locks the three span stores (ACCESS SHARE, one statement) before it reads any of them: a TRUNCATE
-- waits for it, or committed before the lock and the run sees the digests and the spans both empty, so every
-- subscription differs from the store and is recomputed (Sources/Reporting/StoredSpans.swift).
-- Each partition has its own index on subscription_id (the basis is the partition), which the replacing run drops
-- and builds again. The stored rows are kept; they are unchanged.
ALTER TABLE report_stored_span RENAME TO report_stored_span_0031;
ALTER TABLE report_stored_span_input RENAME TO report_stored_span_input_0031;

CREATE TABLE report_stored_span_input (
    basis           text NOT NULL CHECK (basis IN ('corrected', 'known')),
    subscription_id uuid NOT NULL,
    row_count       bigint NOT NULL,
    hash_sum        numeric NOT NULL
) PARTITION BY LIST (basis);
CREATE UNLOGGED TABLE report_stored_span_input_corrected PARTITION OF report_stored_span_input FOR VALUES IN ('corrected');
CREATE UNLOGGED TABLE report_stored_span_input_known PARTITION OF report_stored_span_input FOR VALUES IN ('known');
ALTER TABLE report_stored_span_input_corrected ADD PRIMARY KEY (subscription_id);
ALTER TABLE report_stored_span_input_known ADD PRIMARY KEY (subscription_id);
COMMENT ON TABLE report_stored_span_input IS
    'build-reports: per basis and subscription, report_span_input when its stored spans were computed (migrations 0031, 0037).';

CREATE TABLE report_stored_span (
    basis              text NOT NULL CHECK (basis IN ('corrected', 'known')),
    subscription_id    uuid NOT NULL,
    provider           text NOT NULL,
    billing_account_id uuid,
    state              text,
    from_at            timestamptz NOT NULL,
    to_at              timestamptz,
    currency           text CHECK (currency ~ '^[A-Z]{3}$'),
    country            text,
    product_id         text,
    plan_id            uuid,
    billing_period     text,
    twelfths           bigint
) PARTITION BY LIST (basis);
CREATE UNLOGGED TABLE report_stored_span_corrected PARTITION OF report_stored_span FOR VALUES IN ('corrected');
CREATE UNLOGGED TABLE report_stored_span_known PARTITION OF report_stored_span FOR VALUES IN ('known');
CREATE INDEX report_stored_span_corrected_subscription ON report_stored_span_corrected (subscription_id);
CREATE INDEX report_stored_span_known_subscription ON report_stored_span_known (subscription_id);
COMMENT ON TABLE report_stored_span IS
    'build-reports: per basis, the stored spans (report_span) of each subscription of report_stored_span_input (migrations 0031, 0037).';

INSERT INTO report_stored_span_input SELECT * FROM report_stored_span_input_0031;
INSERT INTO report_stored_span SELECT * FROM report_stored_span_0031;
DROP TABLE report_stored_span_0031, report_stored_span_input_0031;
