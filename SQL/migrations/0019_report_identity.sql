-- A report's identity is (kind, report_key), not its content: the same bytes under two report keys (two empty
-- months of a report, say) are two reports, each with its own report_file row. The content hash stays, unique per
-- report: importing a content the report held before (current or replaced) changes nothing.
ALTER TABLE report_file DROP CONSTRAINT report_file_content_sha256_key;
CREATE UNIQUE INDEX report_file_content_idx ON report_file (kind, report_key, content_sha256);
