-- Subscriptions, their store identities, the normalised transaction history, price changes
-- and entitlements.
CREATE TABLE subscription (
    id                              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    provider                        billing_provider NOT NULL,
    -- NULL while the purchase is unclaimed: its account token matched no billing account.
    billing_account_id              uuid REFERENCES billing_account (id) ON DELETE CASCADE,
    plan_id                         uuid NOT NULL REFERENCES plan (id) ON DELETE RESTRICT,
    status                          subscription_status NOT NULL DEFAULT 'PENDING',
    acknowledgement_status          acknowledgement_status NOT NULL DEFAULT 'NOT_REQUIRED',
    is_test_purchase                boolean NOT NULL DEFAULT false,
    is_sandbox                      boolean NOT NULL DEFAULT false,
    auto_renew                      boolean NOT NULL DEFAULT true,
    current_currency_code           text CHECK (current_currency_code ~ '^[A-Z]{3}$'),
    current_recurring_price_micros  bigint,
    current_period_start_at         timestamptz,
    current_period_end_at           timestamptz,
    trial_ends_at                   timestamptz,
    cancel_at                       timestamptz,
    canceled_at                     timestamptz,
    last_verified_at                timestamptz,
    -- Store time (signedDate / eventTimeMillis) of the newest store state applied; older states never overwrite it.
    last_store_state_at             timestamptz,
    created_at                      timestamptz NOT NULL DEFAULT now(),
    updated_at                      timestamptz NOT NULL DEFAULT now(),
    CHECK ((current_currency_code IS NULL) = (current_recurring_price_micros IS NULL))
);
CREATE INDEX subscription_account_provider_idx ON subscription (billing_account_id, provider);
CREATE INDEX subscription_status_period_end_idx ON subscription (status, current_period_end_at);
CREATE INDEX subscription_provider_status_idx ON subscription (provider, status);
CREATE INDEX subscription_provider_ack_idx ON subscription (provider, acknowledgement_status);
CREATE INDEX subscription_last_verified_idx ON subscription (last_verified_at NULLS FIRST);

CREATE TABLE apple_subscription_identity (
    id                       uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    subscription_id          uuid NOT NULL UNIQUE REFERENCES subscription (id) ON DELETE CASCADE,
    original_transaction_id  text NOT NULL UNIQUE,
    latest_transaction_id    text,
    app_account_token        uuid,
    created_at               timestamptz NOT NULL DEFAULT now(),
    updated_at               timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE google_purchase_token (
    id                     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    subscription_id        uuid NOT NULL REFERENCES subscription (id) ON DELETE CASCADE,
    purchase_token         text NOT NULL UNIQUE,
    linked_purchase_token  text,
    is_current             boolean NOT NULL DEFAULT true,
    created_at             timestamptz NOT NULL DEFAULT now(),
    updated_at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX google_purchase_token_subscription_current_idx ON google_purchase_token (subscription_id, is_current);
CREATE INDEX google_purchase_token_linked_idx ON google_purchase_token (linked_purchase_token);

CREATE TABLE billing_transaction (
    id                        uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    subscription_id           uuid NOT NULL REFERENCES subscription (id) ON DELETE CASCADE,
    provider                  billing_provider NOT NULL,
    event_type                billing_event_type NOT NULL,
    -- APPLE:{originalTransactionId}:{transactionId} or GOOGLE:{purchaseToken}:{latestSuccessfulOrderId}.
    transaction_key           text NOT NULL UNIQUE,
    effective_at              timestamptz NOT NULL,
    expires_at                timestamptz,
    order_id                  text,
    -- Gross customer price of the charge or refund, micros of currency_code (negative for refunds).
    amount_micros             bigint,
    currency_code             text CHECK (currency_code ~ '^[A-Z]{3}$'),
    -- Apple storefront (ISO 3166 alpha-3) or Google regionCode (alpha-2), as the store sent it.
    country_code              text,
    is_test                   boolean NOT NULL DEFAULT false,
    proceeds_micros           bigint,
    proceeds_currency_code    text CHECK (proceeds_currency_code ~ '^[A-Z]{3}$'),
    -- Why: refund/revocation reason, churn cause (e.g. PRICE_INCREASE), voided source/reason.
    reason                    text,
    raw_payload               jsonb NOT NULL,
    created_at                timestamptz NOT NULL DEFAULT now(),
    CHECK ((amount_micros IS NULL) = (currency_code IS NULL))
);
CREATE INDEX billing_transaction_subscription_effective_idx ON billing_transaction (subscription_id, effective_at);
CREATE INDEX billing_transaction_provider_type_effective_idx ON billing_transaction (provider, event_type, effective_at);
CREATE INDEX billing_transaction_order_idx ON billing_transaction (order_id) WHERE order_id IS NOT NULL;

CREATE TABLE subscription_price_change (
    id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    subscription_id     uuid NOT NULL REFERENCES subscription (id) ON DELETE CASCADE,
    provider            billing_provider NOT NULL,
    mode                price_change_mode NOT NULL,
    state               price_change_state NOT NULL,
    currency_code       text NOT NULL CHECK (currency_code ~ '^[A-Z]{3}$'),
    old_amount_micros   bigint,
    new_amount_micros   bigint NOT NULL,
    expected_charge_at  timestamptz,
    effective_at        timestamptz,
    source_event_key    text,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX subscription_price_change_subscription_state_idx ON subscription_price_change (subscription_id, state);
CREATE INDEX subscription_price_change_provider_effective_idx ON subscription_price_change (provider, effective_at);
-- At most one PENDING price change per subscription; APPLIED / CANCELED history rows are unlimited.
CREATE UNIQUE INDEX subscription_price_change_one_pending_idx
    ON subscription_price_change (subscription_id) WHERE state = 'PENDING';

CREATE TABLE entitlement (
    id                      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    billing_account_id      uuid NOT NULL REFERENCES billing_account (id) ON DELETE CASCADE,
    plan_id                 uuid NOT NULL REFERENCES plan (id) ON DELETE RESTRICT,
    source_subscription_id  uuid REFERENCES subscription (id) ON DELETE SET NULL,
    is_active               boolean NOT NULL DEFAULT false,
    valid_from              timestamptz,
    valid_until             timestamptz,
    created_at              timestamptz NOT NULL DEFAULT now(),
    updated_at              timestamptz NOT NULL DEFAULT now(),
    UNIQUE (billing_account_id, plan_id)
);
CREATE INDEX entitlement_account_active_idx ON entitlement (billing_account_id, is_active);
