-- Users, billing accounts, plans and the store product catalogue mapping.
CREATE TABLE app_user (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    email       text UNIQUE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE billing_account (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id        uuid NOT NULL UNIQUE REFERENCES app_user (id) ON DELETE CASCADE,
    account_token  uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE plan (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    code            text NOT NULL UNIQUE,
    name            text NOT NULL,
    interval_unit   interval_unit NOT NULL,
    -- ISO 8601 duration of one billing period: P1W, P1M, P2M, P3M, P6M, P1Y.
    billing_period  text NOT NULL CHECK (billing_period ~ '^P[1-9][0-9]*[DWMY]$'),
    is_active       boolean NOT NULL DEFAULT true,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE store_product_mapping (
    id                        uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    provider                  billing_provider NOT NULL,
    plan_id                   uuid NOT NULL REFERENCES plan (id) ON DELETE CASCADE,
    product_id                text NOT NULL,
    -- Never NULL: '' stands for "none" so that the composite unique key holds (NULLs are distinct).
    base_plan_id              text NOT NULL DEFAULT '',
    offer_id                  text NOT NULL DEFAULT '',
    -- Catalogue display price cache; never used for billing decisions (design doc P-2).
    display_currency_code     text CHECK (display_currency_code ~ '^[A-Z]{3}$'),
    display_price_micros      bigint,
    display_price_updated_at  timestamptz,
    external_key              text NOT NULL UNIQUE,
    created_at                timestamptz NOT NULL DEFAULT now(),
    UNIQUE (provider, product_id, base_plan_id, offer_id)
);
CREATE INDEX store_product_mapping_provider_plan_idx ON store_product_mapping (provider, plan_id);
