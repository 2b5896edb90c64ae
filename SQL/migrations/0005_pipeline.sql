-- The pipeline's own bookkeeping: job runs, store API attempts, drift, rate limits,
-- dead letters, FX rates and the audit trail.
CREATE TABLE job_run (
    id           bigserial PRIMARY KEY,
    job_name     text NOT NULL,
    status       text NOT NULL DEFAULT 'running'
                 CHECK (status IN ('running', 'succeeded', 'failed', 'threshold_breached', 'interrupted')),
    started_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
    finished_at  timestamptz,
    as_of        timestamptz NOT NULL,
    dry_run      boolean NOT NULL DEFAULT false,
    arguments    jsonb NOT NULL DEFAULT '[]',
    counts       jsonb NOT NULL DEFAULT '{}',
    error        text,
    host         text NOT NULL,
    pid          integer NOT NULL,
    backend_pid  integer NOT NULL DEFAULT pg_backend_pid(),
    CHECK ((status = 'running') = (finished_at IS NULL))
);
CREATE INDEX job_run_name_started_idx ON job_run (job_name, started_at DESC);

CREATE TABLE store_query (
    id                bigserial PRIMARY KEY,
    job_run_id        bigint REFERENCES job_run (id) ON DELETE SET NULL,
    subscription_id   uuid REFERENCES subscription (id) ON DELETE SET NULL,
    provider          billing_provider NOT NULL,
    endpoint          text NOT NULL,
    outcome           text NOT NULL,
    http_status       integer,
    store_error_code  text,
    latency_ms        integer NOT NULL CHECK (latency_ms >= 0),
    attempted_at      timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX store_query_job_run_idx ON store_query (job_run_id);
CREATE INDEX store_query_subscription_idx ON store_query (subscription_id, attempted_at);

CREATE TABLE drift_event (
    id               bigserial PRIMARY KEY,
    job_run_id       bigint REFERENCES job_run (id) ON DELETE SET NULL,
    subscription_id  uuid NOT NULL REFERENCES subscription (id) ON DELETE CASCADE,
    kind             text NOT NULL CHECK (kind IN ('status', 'entitlement', 'expiry', 'price',
                                                    'acknowledgement', 'missing_transaction', 'other')),
    field            text NOT NULL,
    database_value   text,
    store_value      text,
    detected_at      timestamptz NOT NULL,
    repaired         boolean NOT NULL DEFAULT false
);
CREATE INDEX drift_event_detected_idx ON drift_event (detected_at, kind);
CREATE INDEX drift_event_subscription_idx ON drift_event (subscription_id);

CREATE TABLE rate_limit_bucket (
    bucket_key          text PRIMARY KEY,            -- provider:endpoint
    capacity            double precision NOT NULL CHECK (capacity > 0),
    refill_per_second   double precision NOT NULL CHECK (refill_per_second > 0),
    tokens              double precision NOT NULL,
    refilled_at         timestamptz NOT NULL,
    blocked_until       timestamptz,                 -- from Retry-After
    daily_budget        integer CHECK (daily_budget > 0),
    daily_used          integer NOT NULL DEFAULT 0,
    budget_day          date
);

CREATE TABLE dead_letter (
    id           bigserial PRIMARY KEY,
    source       text NOT NULL,                      -- e.g. inbound_webhook_event
    source_id    text NOT NULL,
    reason       text NOT NULL,
    attempts     integer NOT NULL,
    payload      jsonb,
    created_at   timestamptz NOT NULL DEFAULT now(),
    resolved_at  timestamptz,
    UNIQUE (source, source_id)
);

CREATE TABLE fx_rate (
    month          date NOT NULL CHECK (extract(day FROM month) = 1),
    from_currency  text NOT NULL CHECK (from_currency ~ '^[A-Z]{3}$'),
    to_currency    text NOT NULL CHECK (to_currency ~ '^[A-Z]{3}$'),
    -- Units of to_currency per unit of from_currency, exact decimal.
    rate           numeric(24, 12) NOT NULL CHECK (rate > 0),
    source         text NOT NULL,
    PRIMARY KEY (month, from_currency, to_currency)
);

CREATE TABLE audit_log (
    id         bigserial PRIMARY KEY,
    at         timestamptz NOT NULL DEFAULT clock_timestamp(),
    actor      text NOT NULL,
    action     text NOT NULL,
    entity     text NOT NULL,
    entity_id  text,
    detail     jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_entity_idx ON audit_log (entity, entity_id);
