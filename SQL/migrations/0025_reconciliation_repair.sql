-- What requery-at-risk's `reconciliation` category did for each open reconciliation item it could act on
-- (docs/RECONCILIATION.md, "Closing the loop"): the latest job run's word per item. reconcile's rerun then says whether
-- the item is resolved; an item still listed keeps the reason here.

SET LOCAL TimeZone = 'UTC';

CREATE TABLE reconciliation_repair (
    run_id          bigint NOT NULL REFERENCES reconciliation_run (id) ON DELETE CASCADE,
    line            integer NOT NULL,
    -- repaired: the store stated rows the database lacked (or a refund amount it had wrong), now written;
    -- not_found: no subscription matches the item, or the store's answer holds nothing the database lacks;
    -- store_window: the store no longer answers for it (a Google token or order past Google's window);
    -- failed: the store call or the write failed (the next run tries again).
    outcome         text NOT NULL CHECK (outcome IN ('repaired', 'not_found', 'store_window', 'failed')),
    detail          text NOT NULL DEFAULT '',
    -- The subscription the word is about (none for not_found without a match).
    subscription_id uuid,
    job_run_id      bigint,
    recorded_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (run_id, line)
);
