-- ledger_transfer() refuses unbalanced legs itself (not only the TypeScript validation).
CREATE OR REPLACE FUNCTION "ledger_transfer"(
  p_key TEXT, p_type "ledger_transfer_type", p_memo JSONB, p_codes TEXT[], p_amounts BIGINT[]
) RETURNS TABLE (r_transfer_id BIGINT, r_created_at TIMESTAMPTZ, r_memo JSONB, r_account TEXT, r_amount BIGINT, r_balance_after BIGINT)
LANGUAGE plpgsql AS $$
DECLARE
  v_transfer BIGINT;
  v_created TIMESTAMPTZ;
  v_account INTEGER;
  v_balance BIGINT;
  leg RECORD;
BEGIN
  -- The function is the last line of defence: whoever calls it, money is never created or lost.
  IF cardinality(p_codes) < 2 OR cardinality(p_codes) <> cardinality(p_amounts)
     OR (SELECT count(DISTINCT c) FROM unnest(p_codes) AS c) <> cardinality(p_codes)
     OR (SELECT sum(a) FROM unnest(p_amounts) AS a) <> 0
     OR EXISTS (SELECT 1 FROM unnest(p_amounts) AS a WHERE a = 0) THEN
    RAISE EXCEPTION 'ledger: transfer % is not balanced', p_key USING ERRCODE = 'LF003';
  END IF;
  INSERT INTO ledger_transfers (idempotency_key, type, memo) VALUES (p_key, p_type, p_memo)
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING id, created_at INTO v_transfer, v_created;
  IF v_transfer IS NULL THEN
    RETURN;
  END IF;
  FOR leg IN
    SELECT l.code, l.amount FROM unnest(p_codes, p_amounts) AS l(code, amount) ORDER BY l.code COLLATE "C"
  LOOP
    UPDATE ledger_accounts SET balance = balance + leg.amount
    WHERE code = leg.code AND (allow_negative OR balance + leg.amount >= 0)
    RETURNING id, balance INTO v_account, v_balance;
    IF NOT FOUND THEN
      IF EXISTS (SELECT 1 FROM ledger_accounts WHERE code = leg.code) THEN
        RAISE EXCEPTION 'ledger: insufficient funds in %', leg.code USING ERRCODE = 'LF001';
      END IF;
      RAISE EXCEPTION 'ledger: no account %', leg.code USING ERRCODE = 'LF002';
    END IF;
    INSERT INTO ledger_entries (transfer_id, account_id, amount, balance_after)
    VALUES (v_transfer, v_account, leg.amount, v_balance);
    r_transfer_id := v_transfer;
    r_created_at := v_created;
    r_memo := p_memo;
    r_account := leg.code;
    r_amount := leg.amount;
    r_balance_after := v_balance;
    RETURN NEXT;
  END LOOP;
END;
$$;
