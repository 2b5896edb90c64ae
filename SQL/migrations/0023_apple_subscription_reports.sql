-- Staging of Apple's Subscription report (SUBSCRIPTION, SUMMARY, DAILY 1_3: the store's own daily count of
-- subscriptions by state) and Subscription Event report (SUBSCRIPTION_EVENT, SUMMARY, DAILY 1_3: daily event counts),
-- written by import-exports as the other kinds are (one report_file row per file, rows replaced whole by a correction).
-- The event rows feed the trial-conversion cross-check (issue 30): event names and days are indexed.
-- Money is bigint micros with its char(3) currency; days are the report's own (US Pacific) calendar days; counts exact.

ALTER TABLE report_file DROP CONSTRAINT report_file_kind_check;
ALTER TABLE report_file ADD CONSTRAINT report_file_kind_check
    CHECK (kind IN ('appleFinancial', 'applePayments', 'appleSubscriber', 'appleSubscription', 'appleSubscriptionEvent',
                    'appleSummarySales', 'googleEarnings', 'googleEstimatedSales'));

CREATE TABLE apple_subscription_row (
    report_file_id                          bigint NOT NULL REFERENCES report_file (id) ON DELETE CASCADE,
    line                                    integer NOT NULL,
    -- The report's day, from the file name (Subscription_<vendor>_<YYYYMMDD>): the rows carry no date.
    report_date                             date NOT NULL,
    app_name                                text NOT NULL,
    app_apple_id                            text NOT NULL,
    subscription_name                       text NOT NULL,
    subscription_apple_id                   text NOT NULL,
    subscription_group_id                   text NOT NULL,
    standard_subscription_duration          text NOT NULL,
    -- `Subscription Offer Name` (`Promotional Offer Name` in the real 1_3 files).
    subscription_offer_name                 text NOT NULL,
    promotional_offer_id                    text NOT NULL,
    customer_price_micros                   bigint NOT NULL,
    customer_currency                       char(3) NOT NULL CHECK (customer_currency ~ '^[A-Z]{3}$'),
    developer_proceeds_micros               bigint NOT NULL,
    proceeds_currency                       char(3) NOT NULL CHECK (proceeds_currency ~ '^[A-Z]{3}$'),
    preserved_pricing                       text NOT NULL,
    proceeds_reason                         text NOT NULL,
    client                                  text NOT NULL,
    device                                  text NOT NULL,
    state                                   text NOT NULL,
    country                                 text NOT NULL,
    active_standard_price                   bigint NOT NULL CHECK (active_standard_price >= 0),
    active_free_trial_introductory_offer    bigint NOT NULL CHECK (active_free_trial_introductory_offer >= 0),
    active_pay_up_front_introductory_offer  bigint NOT NULL CHECK (active_pay_up_front_introductory_offer >= 0),
    active_pay_as_you_go_introductory_offer bigint NOT NULL CHECK (active_pay_as_you_go_introductory_offer >= 0),
    free_trial_promotional_offer            bigint NOT NULL CHECK (free_trial_promotional_offer >= 0),
    pay_up_front_promotional_offer          bigint NOT NULL CHECK (pay_up_front_promotional_offer >= 0),
    pay_as_you_go_promotional_offer         bigint NOT NULL CHECK (pay_as_you_go_promotional_offer >= 0),
    marketing_opt_ins                       bigint NOT NULL CHECK (marketing_opt_ins >= 0),
    billing_retry                           bigint NOT NULL CHECK (billing_retry >= 0),
    grace_period                            bigint NOT NULL CHECK (grace_period >= 0),
    -- Only the layout Apple documents today carries the offer-code counts; NULL for files without those columns.
    free_trial_offer_code                   bigint CHECK (free_trial_offer_code >= 0),
    pay_up_front_offer_code                 bigint CHECK (pay_up_front_offer_code >= 0),
    pay_as_you_go_offer_code                bigint CHECK (pay_as_you_go_offer_code >= 0),
    -- `Subscribers` (family members included) is filled only for rows of more than 3 subscriptions.
    subscribers                             bigint CHECK (subscribers >= 0),
    PRIMARY KEY (report_file_id, line)
);
CREATE INDEX apple_subscription_row_day_idx ON apple_subscription_row (report_date, subscription_apple_id);

CREATE TABLE apple_subscription_event_row (
    report_file_id                  bigint NOT NULL REFERENCES report_file (id) ON DELETE CASCADE,
    line                            integer NOT NULL,
    event_date                      date NOT NULL,
    -- As written; the parser accepts only the values docs/STORE_REPORTS.md lists.
    event                           text NOT NULL CHECK (event <> ''),
    app_name                        text NOT NULL,
    app_apple_id                    text NOT NULL,
    subscription_name               text NOT NULL,
    subscription_apple_id           text NOT NULL,
    subscription_group_id           text NOT NULL,
    standard_subscription_duration  text NOT NULL,
    subscription_offer_type         text NOT NULL,
    subscription_offer_duration     text NOT NULL,
    marketing_opt_in                boolean NOT NULL,
    marketing_opt_in_duration       text NOT NULL,
    preserved_pricing               boolean NOT NULL,
    proceeds_reason                 text NOT NULL,
    subscription_offer_name         text NOT NULL,
    promotional_offer_id            text NOT NULL,
    consecutive_paid_periods        bigint CHECK (consecutive_paid_periods >= 0),
    original_start_date             date,
    client                          text NOT NULL,
    device                          text NOT NULL,
    state                           text NOT NULL,
    country                         text NOT NULL,
    previous_subscription_name      text NOT NULL,
    previous_subscription_apple_id  text NOT NULL,
    days_before_canceling           bigint CHECK (days_before_canceling >= 0),
    cancellation_reason             text NOT NULL,
    days_canceled                   bigint CHECK (days_canceled >= 0),
    quantity                        bigint NOT NULL CHECK (quantity > 0),
    PRIMARY KEY (report_file_id, line)
);
CREATE INDEX apple_subscription_event_row_day_idx ON apple_subscription_event_row (event_date, subscription_apple_id);
CREATE INDEX apple_subscription_event_row_event_idx ON apple_subscription_event_row (event, event_date);
CREATE INDEX apple_subscription_event_row_name_idx ON apple_subscription_event_row (subscription_name, event_date);
