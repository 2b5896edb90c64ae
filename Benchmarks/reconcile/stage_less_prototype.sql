-- Historical (issue 29): run against google_earnings_row, which migration 0033 replaced by what this measured.
-- Issue 29, "stage less", measured before it is built: what the server would do if the earnings file were kept as its
-- bytes (1 MiB bytea chunks under its hash) plus one fact per order and side, against what it does today (the rows)
-- and the floor (26 text columns by COPY, then the order-ID index), all in one session, server side.
-- Run on a benchmark database after Benchmarks/reconcile/run.sh has staged a month (the last `import-exports` leaves
-- its file staged), as a superuser (pg_read_binary_file, COPY … FROM PROGRAM, server-side COPY files):
--   psql -X -d iap_bench_reconcile -v zip=/abs/path/earnings_….zip -v unzip='unzip -p /abs/path/earnings_….zip' \
--        -f Benchmarks/reconcile/stage_less_prototype.sql
-- The facts are computed here from the staged rows with SQL (the importer would fold them as the file streams) and
-- written once to a binary COPY file, so that loading them is timed as the importer's binary COPY would be.
\timing on
\set ON_ERROR_STOP 1
DROP TABLE IF EXISTS proto_fact, proto_chunk;
CREATE TABLE proto_fact (
    report_file_id bigint NOT NULL, order_id text NOT NULL, side smallint NOT NULL,
    gross_micros bigint NOT NULL, fee_micros bigint NOT NULL, tax_micros bigint NOT NULL, row_count integer NOT NULL,
    charge_count integer NOT NULL, currency char(3) NOT NULL, country text NOT NULL, product_id text NOT NULL,
    refund_type text, first_at timestamptz NOT NULL);
CREATE TABLE proto_chunk (content_sha256 text NOT NULL, seq integer NOT NULL, bytes bytea NOT NULL, PRIMARY KEY (content_sha256, seq));
ALTER TABLE proto_chunk ALTER COLUMN bytes SET STORAGE EXTERNAL;
-- The facts as the importer would send them (one per order and side), written once to a binary COPY file.
COPY (SELECT r.report_file_id, r.order_id,
             (r.transaction_type LIKE '% refund' AND r.refund_type IS NOT NULL)::int::smallint,
             coalesce(sum(r.amount_buyer_micros) FILTER (WHERE r.transaction_type LIKE 'Charge%'), 0)::int8,
             coalesce(sum(r.amount_buyer_micros) FILTER (WHERE r.transaction_type LIKE 'Google fee%'), 0)::int8,
             coalesce(sum(r.amount_buyer_micros) FILTER (WHERE r.transaction_type LIKE 'Tax%'), 0)::int8,
             count(*)::int, count(*) FILTER (WHERE r.transaction_type LIKE 'Charge%')::int,
             min(r.buyer_currency), min(r.buyer_country), min(r.product_id), max(r.refund_type), min(r.transaction_at)
      FROM google_earnings_row r
      GROUP BY r.report_file_id, r.order_id, (r.transaction_type LIKE '% refund' AND r.refund_type IS NOT NULL))
  TO '/tmp/stage_less_facts.bin' (FORMAT binary);
\echo == stage: facts by binary COPY
COPY proto_fact FROM '/tmp/stage_less_facts.bin' (FORMAT binary);
\echo == stage: the file bytes, 1 MiB chunks
INSERT INTO proto_chunk SELECT 'x', s, pg_read_binary_file(:'zip', (s * 1048576)::bigint, 1048576)
FROM generate_series(0, (((pg_stat_file(:'zip')).size - 1) / 1048576)::int) s;
\echo == stage: facts order index
CREATE INDEX ON proto_fact (order_id);
SELECT count(*) AS facts, (SELECT count(*) FROM google_earnings_row) AS rows, pg_size_pretty(pg_total_relation_size('proto_fact')) AS facts_size,
       pg_size_pretty(pg_total_relation_size('proto_chunk')) AS chunks_size, pg_size_pretty(pg_total_relation_size('google_earnings_row')) AS rows_size
FROM proto_fact;
\echo == floor (same session): unzip -p | COPY into 26 text columns, then its order-id index
DROP TABLE IF EXISTS proto_floor;
CREATE TABLE proto_floor (c1 text, c2 text, c3 text, c4 text, c5 text, c6 text, c7 text, c8 text, c9 text, c10 text, c11 text, c12 text, c13 text,
  c14 text, c15 text, c16 text, c17 text, c18 text, c19 text, c20 text, c21 text, c22 text, c23 text, c24 text, c25 text, c26 text);
COPY proto_floor FROM PROGRAM :'unzip' (FORMAT csv, HEADER true);
CREATE INDEX ON proto_floor (c1);
DROP TABLE proto_floor;
\echo == reconcile read: facts (binary COPY out)
COPY (SELECT order_id, side, gross_micros, fee_micros, tax_micros, charge_count, currency, country, product_id, refund_type, first_at FROM proto_fact ORDER BY report_file_id) TO '/dev/null' (FORMAT binary);
\echo == reconcile read: rows today (binary COPY out)
COPY (SELECT r.order_id, r.transaction_type, r.refund_type, r.product_id, r.buyer_country, r.buyer_currency, r.amount_buyer_micros, r.transaction_at
      FROM google_earnings_row r ORDER BY r.report_file_id, r.line) TO '/dev/null' (FORMAT binary);
\echo == read back the kept file (its bytes, in order)
SELECT length(string_agg(bytes, ''::bytea ORDER BY seq)) FROM proto_chunk WHERE content_sha256 = 'x';
DROP TABLE proto_fact, proto_chunk;
