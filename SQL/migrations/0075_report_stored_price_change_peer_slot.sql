-- price_change_churn's stored peer states looked up by slot (issue 31; Reports/README.md, "Stored price-change facts").
--
-- A night reads the stored peer states only when the store holds every slot of the run (a baseline window, provider
-- and product) under the current definition: one `NOT EXISTS` per slot, each a scan of the store until a row of that
-- slot turns up (525 000 rows at 1M subscriptions, 8 slots: 0.4–0.8 s of the second session, every night). Indexed
-- by slot, each look-up is one index probe.
CREATE INDEX report_stored_price_change_peer_slot
    ON report_stored_price_change_peer (basis, window_start, provider, product_id);
