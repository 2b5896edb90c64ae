-- requery-at-risk work items: one row per (run key, subscription), so several processes split one run
-- through row leases (FOR UPDATE SKIP LOCKED) and no subscription is queried twice in a run.
CREATE TABLE requery_work_item (
    id               bigserial PRIMARY KEY,
    run_key          text NOT NULL,
    subscription_id  uuid NOT NULL REFERENCES subscription (id) ON DELETE CASCADE,
    -- The highest backfill category the subscription was selected for, and its priority (1 = first).
    category         text NOT NULL,
    priority         integer NOT NULL,
    is_test          boolean NOT NULL DEFAULT false,
    state            text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'claimed', 'done', 'failed')),
    -- done: repaired | unchanged | token_gone | not_found.
    outcome          text,
    claimed_by       text,
    claimed_at       timestamptz,
    finished_at      timestamptz,
    attempts         integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_error       text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    UNIQUE (run_key, subscription_id)
);
CREATE INDEX requery_work_item_claim_idx ON requery_work_item (run_key, state, priority, id);
