-- The currency columns of the refund facts (0064) and first charges (0065) get the shape every currency column of
-- the schema has (three capital letters, as `billing_transaction.currency_code`), on the stores and the run's
-- placeholders alike (the run's temporary tables are made LIKE the placeholders, without their constraints).
ALTER TABLE report_stored_refund_fact
    ADD CONSTRAINT report_stored_refund_fact_currency_shapes CHECK (refund_currency ~ '^[A-Z]{3}$'
        AND charge_currency ~ '^[A-Z]{3}$' AND fallback_currency ~ '^[A-Z]{3}$');
ALTER TABLE report_refund_fact_run
    ADD CONSTRAINT report_refund_fact_run_currency_shapes CHECK (refund_currency ~ '^[A-Z]{3}$'
        AND charge_currency ~ '^[A-Z]{3}$' AND fallback_currency ~ '^[A-Z]{3}$');
ALTER TABLE report_stored_first_charge
    ADD CONSTRAINT report_stored_first_charge_currency_shape CHECK (currency ~ '^[A-Z]{3}$');
ALTER TABLE report_first_charge_run
    ADD CONSTRAINT report_first_charge_run_currency_shape CHECK (currency ~ '^[A-Z]{3}$');
