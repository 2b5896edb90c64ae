-- Columns the projection writer needs beyond the design document's model.
-- The store product currently billed (plans can map from several products; upgrades change it).
ALTER TABLE subscription ADD COLUMN product_id text;
-- The stored webhook a history row came from, when it came from one.
ALTER TABLE billing_transaction
    ADD COLUMN inbound_event_id uuid REFERENCES inbound_webhook_event (id) ON DELETE SET NULL;
CREATE INDEX billing_transaction_inbound_event_idx ON billing_transaction (inbound_event_id)
    WHERE inbound_event_id IS NOT NULL;
-- "Has this account ever had a free trial?" is asked on every projection of a new purchase.
CREATE INDEX subscription_account_trial_idx ON subscription (billing_account_id) WHERE trial_ends_at IS NOT NULL;
