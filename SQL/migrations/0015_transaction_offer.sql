-- The offer a store transaction was charged under, as the store sent it, on every row written from that transaction.
-- Apple: the signed transaction's offerType (1 introductory, 2 promotional, 3 offer code, 4 win-back) and
-- offerDiscountType (FREE_TRIAL, PAY_AS_YOU_GO, PAY_UP_FRONT); both NULL when the transaction names no offer.
-- Google rows leave them NULL (a Google sign-up code is in signup_promotion_type / signup_promotion_code).
-- Reconcile tells an offer-code charge of 0 (a CR row in Apple's financial report) from a free trial (left out of
-- the report) by offer_type, instead of inferring it from the subscription's trial_ends_at.
-- No CHECK on the values: they are kept as sent, and an unknown future value must not stop the projection.
ALTER TABLE billing_transaction
    ADD COLUMN offer_type smallint,
    ADD COLUMN offer_discount_type text;

-- Backfill what the stored evidence allows: an Apple row whose inbound event holds the decoded transaction it was
-- written from (the same transactionId) gets that transaction's offer. Rows whose event holds only a signed JWS, or
-- that a re-query wrote without an event, stay NULL.
UPDATE billing_transaction b
SET offer_type = (e.payload->'transactionInfo'->>'offerType')::smallint,
    offer_discount_type = NULLIF(e.payload->'transactionInfo'->>'offerDiscountType', '')
FROM inbound_webhook_event e
WHERE e.id = b.inbound_event_id AND b.provider = 'APPLE'
  AND e.payload->'transactionInfo'->>'offerType' ~ '^[0-9]{1,4}$'
  AND split_part(b.transaction_key, ':', 3) = e.payload->'transactionInfo'->>'transactionId';
