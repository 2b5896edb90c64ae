-- Staging of the stores' report files (import-exports): one report_file row per imported file, keyed by the
-- SHA-256 of its decompressed content, and one typed table per report kind whose rows reference it.
-- Money is bigint micros with its char(3) currency beside it; dates are the file's own calendar days.

CREATE TABLE report_file (
    id              bigserial PRIMARY KEY,
    kind            text NOT NULL CHECK (kind IN ('appleFinancial', 'applePayments', 'appleSubscriber',
                                                  'appleSummarySales', 'googleEarnings', 'googleEstimatedSales')),
    provider        text NOT NULL CHECK (provider IN ('apple', 'google')),
    file_name       text NOT NULL,
    -- The report's identity: the canonical file name without container suffixes (45545510_0914_CH.txt and
    -- its .gz are one report). A second file with the same key and other content is a correction.
    report_key      text NOT NULL,
    content_sha256  char(64) NOT NULL UNIQUE,
    -- Apple fiscal period as reportDate (2014-12), a calendar month (2019-11) or a day (2025-11-03);
    -- the payments summary's own label when it has one.
    period          text NOT NULL,
    region          text NOT NULL DEFAULT '',
    vendor          text NOT NULL DEFAULT '',
    row_count       integer NOT NULL CHECK (row_count >= 0),
    imported_at     timestamptz NOT NULL DEFAULT now(),
    -- Deferred: the replacing file is inserted after the current one is marked, in one transaction.
    replaced_by     bigint REFERENCES report_file (id) DEFERRABLE INITIALLY DEFERRED
);
-- At most one current (not replaced) file per report.
CREATE UNIQUE INDEX report_file_current_idx ON report_file (kind, report_key) WHERE replaced_by IS NULL;

CREATE TABLE apple_financial_row (
    report_file_id                  bigint NOT NULL REFERENCES report_file (id) ON DELETE CASCADE,
    line                            integer NOT NULL,
    start_date                      date NOT NULL,
    end_date                        date NOT NULL,
    upc                             text NOT NULL,
    isrc_isbn                       text NOT NULL,
    vendor_identifier               text NOT NULL,
    quantity                        bigint NOT NULL,
    partner_share_micros            bigint NOT NULL,
    extended_partner_share_micros   bigint NOT NULL,
    partner_share_currency          char(3) NOT NULL,
    sale_or_return                  char(1) NOT NULL CHECK (sale_or_return IN ('S', 'R')),
    apple_identifier                text NOT NULL,
    developer                       text NOT NULL,
    title                           text NOT NULL,
    label                           text NOT NULL,
    grid                            text NOT NULL,
    product_type_identifier         text NOT NULL,
    isan_other_identifier           text NOT NULL,
    country_of_sale                 text NOT NULL,
    pre_order_flag                  text NOT NULL,
    promo_code                      text NOT NULL,
    customer_price_micros           bigint NOT NULL,
    customer_currency               char(3) NOT NULL,
    PRIMARY KEY (report_file_id, line)
);

CREATE TABLE apple_payments_row (
    report_file_id          bigint NOT NULL REFERENCES report_file (id) ON DELETE CASCADE,
    line                    integer NOT NULL,
    region                  text NOT NULL,
    currency                char(3) NOT NULL,
    units_sold              bigint NOT NULL,
    earned_micros           bigint NOT NULL,
    pre_tax_subtotal_micros bigint,
    input_tax_micros        bigint,
    adjustments_micros      bigint,
    withholding_tax_micros  bigint,
    total_owed_micros       bigint NOT NULL,
    balance_micros          bigint,
    -- Apple's rate from currency to bank_account_currency, exactly as written.
    exchange_rate           numeric,
    proceeds_micros         bigint,
    bank_account_currency   char(3),
    PRIMARY KEY (report_file_id, line)
);

CREATE TABLE apple_subscriber_row (
    report_file_id                  bigint NOT NULL REFERENCES report_file (id) ON DELETE CASCADE,
    line                            integer NOT NULL,
    event_date                      date NOT NULL,
    app_name                        text NOT NULL,
    app_apple_id                    text NOT NULL,
    subscription_name               text NOT NULL,
    subscription_apple_id           text NOT NULL,
    subscription_group_id           text NOT NULL,
    standard_subscription_duration  text NOT NULL,
    subscription_offer_name         text NOT NULL,
    promotional_offer_id            text NOT NULL,
    subscription_offer_type         text NOT NULL,
    subscription_offer_duration     text NOT NULL,
    marketing_opt_in_duration       text NOT NULL,
    customer_price_micros           bigint NOT NULL,
    customer_currency               char(3) NOT NULL,
    developer_proceeds_micros       bigint NOT NULL,
    proceeds_currency               char(3) NOT NULL,
    preserved_pricing               text NOT NULL,
    proceeds_reason                 text NOT NULL,
    client                          text NOT NULL,
    device                          text NOT NULL,
    country                         text NOT NULL,
    subscriber_id                   text NOT NULL,
    subscriber_id_reset             text NOT NULL,
    is_refund                       boolean NOT NULL,
    purchase_date                   date,
    units                           bigint NOT NULL,
    PRIMARY KEY (report_file_id, line)
);

CREATE TABLE apple_sales_summary_row (
    report_file_id              bigint NOT NULL REFERENCES report_file (id) ON DELETE CASCADE,
    line                        integer NOT NULL,
    provider                    text NOT NULL,
    provider_country            text NOT NULL,
    sku                         text NOT NULL,
    developer                   text NOT NULL,
    title                       text NOT NULL,
    version                     text NOT NULL,
    product_type_identifier     text NOT NULL,
    units                       bigint NOT NULL,
    developer_proceeds_micros   bigint NOT NULL,
    begin_date                  date NOT NULL,
    end_date                    date NOT NULL,
    customer_currency           char(3) NOT NULL,
    country_code                text NOT NULL,
    currency_of_proceeds        char(3) NOT NULL,
    apple_identifier            text NOT NULL,
    customer_price_micros       bigint NOT NULL,
    promo_code                  text NOT NULL,
    parent_identifier           text NOT NULL,
    subscription                text NOT NULL,
    period                      text NOT NULL,
    -- Other known columns the file carried (Category, Device, Client, …), by header name.
    extra                       jsonb NOT NULL DEFAULT '{}',
    PRIMARY KEY (report_file_id, line)
);

CREATE TABLE google_earnings_row (
    report_file_id              bigint NOT NULL REFERENCES report_file (id) ON DELETE CASCADE,
    line                        integer NOT NULL,
    order_id                    text NOT NULL,
    transaction_date            date NOT NULL,
    transaction_at              timestamptz NOT NULL,
    transaction_zone            text NOT NULL,
    tax_type                    text NOT NULL,
    transaction_type            text NOT NULL,
    refund_type                 text CHECK (refund_type IN ('Full', 'Partial')),
    product_title               text NOT NULL,
    product_id                  text NOT NULL,
    product_type                integer NOT NULL,
    sku_id                      text NOT NULL,
    hardware                    text NOT NULL,
    buyer_country               text NOT NULL,
    buyer_state                 text NOT NULL,
    buyer_postal_code           text NOT NULL,
    buyer_currency              char(3) NOT NULL,
    amount_buyer_micros         bigint NOT NULL,
    -- Buyer → merchant currency, exactly as written.
    currency_conversion_rate    numeric NOT NULL,
    merchant_currency           char(3) NOT NULL,
    amount_merchant_micros      bigint NOT NULL,
    base_plan_id                text NOT NULL,
    offer_id                    text NOT NULL,
    group_id                    text NOT NULL,
    first_usd_1m_eligible       text NOT NULL,
    service_fee_percent         text NOT NULL,
    fee_description             text NOT NULL,
    promotion_id                text NOT NULL,
    sales_channel               text NOT NULL,
    PRIMARY KEY (report_file_id, line)
);
CREATE INDEX google_earnings_row_order_idx ON google_earnings_row (order_id);

CREATE TABLE google_estimated_sales_row (
    report_file_id          bigint NOT NULL REFERENCES report_file (id) ON DELETE CASCADE,
    line                    integer NOT NULL,
    order_number            text NOT NULL,
    order_charged_date      date NOT NULL,
    order_charged_at        timestamptz NOT NULL,
    financial_status        text NOT NULL,
    device_model            text NOT NULL,
    product_title           text NOT NULL,
    product_id              text NOT NULL,
    product_type            text NOT NULL,
    sku_id                  text NOT NULL,
    currency_of_sale        char(3) NOT NULL,
    item_price_micros       bigint NOT NULL,
    taxes_collected_micros  bigint NOT NULL,
    charged_amount_micros   bigint NOT NULL,
    city_of_buyer           text NOT NULL,
    state_of_buyer          text NOT NULL,
    postal_code_of_buyer    text NOT NULL,
    country_of_buyer        text NOT NULL,
    base_plan_id            text NOT NULL,
    offer_id                text NOT NULL,
    group_id                text NOT NULL,
    promotion_id            text NOT NULL,
    extra                   jsonb NOT NULL DEFAULT '{}',
    PRIMARY KEY (report_file_id, line)
);
CREATE INDEX google_estimated_sales_row_order_idx ON google_estimated_sales_row (order_number);
