-- A staged row's reference to its report_file row is checked when the transaction commits, not row by row:
-- import-exports streams a file's rows into staging while it reads the file, before it knows the content hash and
-- row count its report_file row records, and inserts that row once, after the checks (unchanged content, a
-- closed period's file, a shrinking replacement), in the same transaction. report_file rows are still written once
-- and never updated except replaced_by (the job role's grant), and a row without its file still cannot commit.
ALTER TABLE apple_financial_row ALTER CONSTRAINT apple_financial_row_report_file_id_fkey DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE apple_payments_row ALTER CONSTRAINT apple_payments_row_report_file_id_fkey DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE apple_subscriber_row ALTER CONSTRAINT apple_subscriber_row_report_file_id_fkey DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE apple_sales_summary_row ALTER CONSTRAINT apple_sales_summary_row_report_file_id_fkey DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE apple_subscription_row ALTER CONSTRAINT apple_subscription_row_report_file_id_fkey DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE apple_subscription_event_row ALTER CONSTRAINT apple_subscription_event_row_report_file_id_fkey DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE google_earnings_row ALTER CONSTRAINT google_earnings_row_report_file_id_fkey DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE google_estimated_sales_row ALTER CONSTRAINT google_estimated_sales_row_report_file_id_fkey DEFERRABLE INITIALLY DEFERRED;
