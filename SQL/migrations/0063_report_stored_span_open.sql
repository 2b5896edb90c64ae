-- A night reads the spans that reach its snapshots, not every stored span (issue 31; Reports/README.md, "Open spans").
--
-- A night places the contributions and the subscriber states on the last two or three snapshots only, from the spans
-- that end after the first of them (migration 0052). The store holds every span of the history (12.4M at 1M
-- subscriptions, 1.7 GB): each of the two placements read all of it to keep the 16 % that reach those snapshots, the
-- longest part of each. So the store keeps those spans a second time: `report_stored_span_open` holds exactly the
-- stored spans of a basis that are open after the set's `open_after` instant (no end, or an end after it), written
-- in the transaction that writes the store. A night's view of the stored spans is then the open spans, the stored
-- spans ending at or before `open_after`, and the recomputed ones; a placement from an instant at or after
-- `open_after` contradicts the second part, which the planner drops (`constraint_exclusion = on` in the run), so it
-- reads the open spans alone. A run that places earlier snapshots reads both parts: the same spans either way.
--
-- Kept by build-reports (`StoredSpans.save`): a run stores its changed subscriptions' open spans beside their spans,
-- and moves `open_after` forward (deleting the spans that end before it) as the months move on; a run that replaces
-- the basis whole, or whose instant is earlier than the stored one, writes the open spans anew from the store. A cache
-- like the other stores: UNLOGGED; NULL `open_after` means no open spans are kept for the basis.
ALTER TABLE report_stored_span_set ADD COLUMN open_after timestamptz;
COMMENT ON COLUMN report_stored_span_set.open_after IS
    'build-reports: report_stored_span_open holds exactly the basis''s stored spans with no end or an end after this instant; NULL: none kept (migration 0063).';

CREATE UNLOGGED TABLE report_stored_span_open (
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
);
-- A run deletes and inserts its changed subscriptions' rows, and a night's movements look up an account's
-- subscriptions' spans, by subscription.
CREATE INDEX report_stored_span_open_subscription ON report_stored_span_open (subscription_id);
COMMENT ON TABLE report_stored_span_open IS
    'build-reports: the stored spans open after report_stored_span_set.open_after (no end, or an end after it), kept with the store so a night reads only them (migration 0063).';
