-- Apple's Summary Sales report leaves `Currency of Proceeds` blank on free rows (proceeds 0.00, e.g. free
-- downloads of product type 1) while the other rows of the same file carry it. Such a row is staged with a NULL
-- currency of proceeds instead of refusing the whole file; the parser accepts the blank only when the proceeds are 0.
ALTER TABLE apple_sales_summary_row ALTER COLUMN currency_of_proceeds DROP NOT NULL;

-- A payments summary's period is stored as the financial reports store theirs: the fiscal reportDate (YYYY-MM, the
-- fiscal year and period) named after the month of its title (`September, 2014` → 2014-12). The title text stays
-- in report_key. Rows imported before this rule hold the title text; they are rewritten by the same rule.
UPDATE report_file r
SET period = to_char(make_date(m.y, m.mo, 1) + interval '3 months', 'YYYY-MM')
FROM (
    SELECT id,
           split_part(regexp_replace(period, '\s+', ' ', 'g'), ' ', 2)::int AS y,
           array_position(ARRAY['january','february','march','april','may','june','july','august','september',
                                'october','november','december'],
                          lower(rtrim(split_part(period, ' ', 1), ','))) AS mo
    FROM report_file
    WHERE kind = 'applePayments' AND period ~* '^[a-z]+, [0-9]{4}$'
) m
WHERE r.id = m.id AND m.mo IS NOT NULL;
