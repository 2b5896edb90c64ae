-- Matched Google units are stored summed (docs/RECONCILIATION.md, "Stored items"): one reconciliation_item row per
-- side × product × country × currency of a run's matched orders, with grain_key '*' and the number of orders it
-- sums in unit_count. Every other item (each difference, every Apple cell, each prior-period adjustment) stays one
-- row with unit_count 1. The run's CSV still lists every order; item_count counts the CSV's items, and the rows of
-- a run sum to it through unit_count.

ALTER TABLE reconciliation_item ADD COLUMN unit_count integer NOT NULL DEFAULT 1 CHECK (unit_count >= 1);
