-- The closed-period trigger's refusal no longer quotes the whole transaction key (GOOGLE:{purchaseToken}:{order}
-- holds a purchase token): it names the row by its id and shows the key masked by Redaction.mask's rule (first four
-- characters, '…', last four; a key of 8 characters or fewer shows nothing). The lock itself is unchanged.
CREATE OR REPLACE FUNCTION billing_transaction_closed_period() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    locked text;
BEGIN
    -- Redacting the raw payload (retention, erasure) changes no reported fact: every other column stays locked.
    IF TG_OP = 'UPDATE' AND (to_jsonb(NEW) - 'raw_payload') = (to_jsonb(OLD) - 'raw_payload') THEN
        RETURN NEW;
    END IF;
    SELECT c.period INTO locked
    FROM period_lock l JOIN period_close c ON c.id = l.close_id
    WHERE c.reopened_at IS NULL AND l.provider = OLD.provider
      AND OLD.effective_at >= l.starts_at AND OLD.effective_at < l.ends_at
    LIMIT 1;
    IF locked IS NULL AND TG_OP = 'UPDATE' THEN
        SELECT c.period INTO locked
        FROM period_lock l JOIN period_close c ON c.id = l.close_id
        WHERE c.reopened_at IS NULL AND l.provider = NEW.provider
          AND NEW.effective_at >= l.starts_at AND NEW.effective_at < l.ends_at
        LIMIT 1;
    END IF;
    IF locked IS NOT NULL THEN
        RAISE EXCEPTION 'billing_transaction % (key %) is in closed period % (reopen it with close-period --reopen)',
            OLD.id,
            CASE WHEN length(OLD.transaction_key) > 8
                 THEN left(OLD.transaction_key, 4) || '…' || right(OLD.transaction_key, 4) ELSE '…' END,
            locked USING ERRCODE = 'check_violation';
    END IF;
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;
