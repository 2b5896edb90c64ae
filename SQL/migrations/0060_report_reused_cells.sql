-- cohorts' night from the cells it reuses (issue 31; Reports/README.md, "Cohorts in a night").
--
-- A report stored as cells (`cohorts`) reuses the cells of every month before the first one it computes; a night
-- computes the last month alone. Its SQL still sorted every paid charge and refund of the whole history by customer to
-- find each customer's start month: 21 s of a 1M-subscription night. The cohorts of the months before the last one are
-- fixed by the history up to them (reused only while that is unchanged), and the month before the last one's cells
-- carry each cohort's size, paying customers and cumulative net revenue there, its start month's cell its start net
-- revenue. So build-reports hands the cells it reuses to the query in a temporary table of this name (each row the
-- cells of one reused row by column name), and `cohorts.sql` adds the last month to them: that month's charges and
-- refunds, read by index, and who starts, restarts or stops paying at its snapshot, each customer's start month looked
-- up by index. Without the table (the file run on its own, a run computing more than the last month) the placeholder
-- is read: empty, and the file computes every cell from the history.
CREATE TABLE report_reused_cell_run (month text, cells jsonb,
                                     CONSTRAINT report_reused_cell_run_is_a_placeholder CHECK (false));
COMMENT ON TABLE report_reused_cell_run IS
    'Always empty: shadowed by build-reports'' temporary table of the cells a report stored as cells reuses, by month, each row''s cells a jsonb object by column name (migration 0060).';
