-- The promotion code a Google subscription line item was signed up with (lineItems[].signupPromotion), kept on
-- its charge rows for acquisition and refund analysis. A webhook-driven row's raw_payload holds the notification,
-- not the subscriptionsv2 answer, so the promotion would otherwise be lost.
ALTER TABLE billing_transaction
    ADD COLUMN signup_promotion_type text CHECK (signup_promotion_type IN ('ONE_TIME_CODE', 'VANITY_CODE')),
    -- The vanity code as entered; Google never reveals a one-time code.
    ADD COLUMN signup_promotion_code text,
    ADD CHECK (signup_promotion_code IS NULL OR signup_promotion_type = 'VANITY_CODE');
CREATE INDEX billing_transaction_signup_promotion_idx ON billing_transaction (signup_promotion_type, signup_promotion_code)
    WHERE signup_promotion_type IS NOT NULL;
