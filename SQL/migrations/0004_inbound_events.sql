-- Raw store notifications as the API server stored them, and request idempotency keys.
CREATE TABLE inbound_webhook_event (
    id                     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    provider               billing_provider NOT NULL,
    -- Apple notificationUUID or Google Pub/Sub messageId.
    provider_event_id      text NOT NULL,
    -- Google: purchaseToken:notificationType:eventTimeMillis.
    provider_business_key  text,
    environment            text NOT NULL DEFAULT 'UNKNOWN' CHECK (environment IN ('SANDBOX', 'PRODUCTION', 'UNKNOWN')),
    verified               boolean NOT NULL DEFAULT false,
    payload                jsonb NOT NULL,
    received_at            timestamptz NOT NULL DEFAULT now(),
    processed_at           timestamptz,
    processing_error       text,
    processing_attempts    integer NOT NULL DEFAULT 0 CHECK (processing_attempts >= 0),
    UNIQUE (provider, provider_event_id)
);
CREATE INDEX inbound_webhook_event_business_key_idx ON inbound_webhook_event (provider, provider_business_key);
CREATE INDEX inbound_webhook_event_received_idx ON inbound_webhook_event (provider, received_at);
CREATE INDEX inbound_webhook_event_environment_idx ON inbound_webhook_event (environment);
CREATE INDEX inbound_webhook_event_unprocessed_idx ON inbound_webhook_event (received_at)
    WHERE processed_at IS NULL;

CREATE TABLE idempotency_key (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    key         text NOT NULL UNIQUE,
    scope       text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL
);
CREATE INDEX idempotency_key_scope_expires_idx ON idempotency_key (scope, expires_at);
