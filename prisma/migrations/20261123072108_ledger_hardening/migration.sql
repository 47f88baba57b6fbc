-- Ledger hardening (docs/ledger.md): only ledger_transfer() writes the books, an account's overdraft
-- right follows from its code, and the function refuses malformed input by itself.

-- CreateEnum
CREATE TYPE "ledger_overdraft" AS ENUM ('none', 'trade_fee', 'unlimited');

-- AlterTable: allow_negative (a free boolean) becomes overdraft (fixed by the code, see the CHECKs).
-- Existing rows are backfilled from the rule; a balance the rule forbids makes the migration fail,
-- which is what it should do (docs/ledger.md#overdraft).
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_no_overdraft";
ALTER TABLE "ledger_accounts" ADD COLUMN "overdraft" "ledger_overdraft";
UPDATE "ledger_accounts" SET "overdraft" = CASE
  WHEN "kind" = 'user' AND "sub_balance" = 'fee' THEN 'trade_fee'::"ledger_overdraft"
  WHEN "code" = 'system:chain_clearing' THEN 'unlimited'::"ledger_overdraft"
  ELSE 'none'::"ledger_overdraft" END;
ALTER TABLE "ledger_accounts" ALTER COLUMN "overdraft" SET NOT NULL;
ALTER TABLE "ledger_accounts" DROP COLUMN "allow_negative";

-- The code is the one source of an account's kind, owner and sub-balance: the columns must agree.
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_identity" CHECK (
  ("kind" = 'user' AND "user_id" IS NOT NULL AND "sub_balance" IN ('main', 'fee')
    AND "code" = 'user:' || "user_id" || ':' || "sub_balance")
  OR ("kind" = 'system' AND "user_id" IS NULL AND "sub_balance" IS NULL
    AND "code" ~ '^system:[a-z][a-z_]*$'));
-- Who may go below zero is declared here and nowhere else: a user's fee balance (through trade_fee,
-- enforced in ledger_transfer()) and chain clearing, the mirror of the USDT held on chain. Another
-- such account takes a migration, on purpose.
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_overdraft_rule" CHECK (
  "overdraft"::text = CASE
    WHEN "kind" = 'user' AND "sub_balance" = 'fee' THEN 'trade_fee'
    WHEN "code" = 'system:chain_clearing' THEN 'unlimited'
    ELSE 'none' END);
-- Backstop behind the conditional UPDATE in ledger_transfer().
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_no_overdraft" CHECK (
  "balance" >= 0 OR "overdraft" <> 'none');

-- Every refusal below carries SQLSTATE LF009, which @gridbot/ledger maps to BOOKS_PROTECTED.
CREATE OR REPLACE FUNCTION "ledger_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger is append-only: % on % refused', TG_OP, TG_TABLE_NAME USING ERRCODE = 'LF009';
END;
$$;

-- Row triggers do not fire on TRUNCATE: statement triggers do, also for TRUNCATE … CASCADE.
CREATE TRIGGER "ledger_entries_no_truncate" BEFORE TRUNCATE ON "ledger_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger_append_only"();
CREATE TRIGGER "ledger_transfers_no_truncate" BEFORE TRUNCATE ON "ledger_transfers"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger_append_only"();
CREATE TRIGGER "ledger_accounts_no_truncate" BEFORE TRUNCATE ON "ledger_accounts"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger_append_only"();

-- "Inside ledger_transfer()": the function sets the transaction-local setting ledger.in_transfer to
-- the current transaction id while it writes, and clears it before returning. A stale or copied
-- value from another transaction does not match, and a later statement of the same transaction
-- finds it cleared. Only a deliberate set_config with pg_current_xact_id() can imitate it; a
-- superuser can also disable triggers. docs/ledger.md#who-writes-the-books says what that means.
CREATE FUNCTION "ledger_in_transfer"() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT current_setting('ledger.in_transfer', true) IS NOT DISTINCT FROM pg_current_xact_id()::text
$$;

CREATE FUNCTION "ledger_refuse_write"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'ledger_accounts' THEN
    IF TG_OP = 'INSERT' THEN
      RAISE EXCEPTION 'ledger: an account opens with a zero balance' USING ERRCODE = 'LF009';
    END IF;
    IF (NEW.id, NEW.code, NEW.kind, NEW.user_id, NEW.sub_balance, NEW.overdraft, NEW.created_at)
        IS DISTINCT FROM (OLD.id, OLD.code, OLD.kind, OLD.user_id, OLD.sub_balance, OLD.overdraft,
        OLD.created_at) THEN
      RAISE EXCEPTION 'ledger: account % is immutable except its balance', OLD.code USING ERRCODE = 'LF009';
    END IF;
  END IF;
  RAISE EXCEPTION 'ledger: % on % outside ledger_transfer() refused', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'LF009';
END;
$$;

-- WHEN keeps the happy path cheap: inside ledger_transfer() the trigger function is never called.
CREATE TRIGGER "ledger_accounts_guard_update" BEFORE UPDATE ON "ledger_accounts" FOR EACH ROW
  WHEN ((NEW.id, NEW.code, NEW.kind, NEW.user_id, NEW.sub_balance, NEW.overdraft, NEW.created_at)
    IS DISTINCT FROM (OLD.id, OLD.code, OLD.kind, OLD.user_id, OLD.sub_balance, OLD.overdraft,
    OLD.created_at) OR NOT "ledger_in_transfer"())
  EXECUTE FUNCTION "ledger_refuse_write"();
CREATE TRIGGER "ledger_accounts_guard_insert" BEFORE INSERT ON "ledger_accounts" FOR EACH ROW
  WHEN (NEW.balance <> 0) EXECUTE FUNCTION "ledger_refuse_write"();
CREATE TRIGGER "ledger_transfers_guard_insert" BEFORE INSERT ON "ledger_transfers" FOR EACH ROW
  WHEN (NOT "ledger_in_transfer"()) EXECUTE FUNCTION "ledger_refuse_write"();
CREATE TRIGGER "ledger_entries_guard_insert" BEFORE INSERT ON "ledger_entries" FOR EACH ROW
  WHEN (NOT "ledger_in_transfer"()) EXECUTE FUNCTION "ledger_refuse_write"();

-- Same shape as the ledger migration's version (one statement, legs in code order, conditional
-- UPDATE per leg), plus: it refuses NULL or malformed input itself with a SQLSTATE per reason
-- (LF003 unbalanced, LF004 malformed, LF005 too few legs, LF006 zero leg, LF007 account twice),
-- applies the overdraft rule (docs/ledger.md#overdraft), and marks its own writes for the guards.
CREATE OR REPLACE FUNCTION "ledger_transfer"(
  p_key TEXT, p_type "ledger_transfer_type", p_memo JSONB, p_codes TEXT[], p_amounts BIGINT[]
) RETURNS TABLE (r_transfer_id BIGINT, r_created_at TIMESTAMPTZ, r_memo JSONB, r_account TEXT, r_amount BIGINT, r_balance_after BIGINT)
LANGUAGE plpgsql AS $$
DECLARE
  v_transfer BIGINT;
  v_created TIMESTAMPTZ;
  v_account INTEGER;
  v_balance BIGINT;
  v_legs BIGINT;
  v_distinct BIGINT;
  v_sum NUMERIC;
  v_zero BOOLEAN;
  v_null BOOLEAN;
  leg RECORD;
BEGIN
  -- NULL comparisons are NULL and an IF on NULL does not fire: test for NULL first, explicitly.
  IF p_key IS NULL OR p_key = '' OR p_type IS NULL OR p_codes IS NULL OR p_amounts IS NULL THEN
    RAISE EXCEPTION 'ledger: a transfer needs a key, a type, accounts and amounts' USING ERRCODE = 'LF004';
  END IF;
  IF cardinality(p_codes) <> cardinality(p_amounts) THEN
    RAISE EXCEPTION 'ledger: transfer % has % accounts for % amounts', p_key, cardinality(p_codes),
      cardinality(p_amounts) USING ERRCODE = 'LF004';
  END IF;
  IF cardinality(p_codes) < 2 THEN
    RAISE EXCEPTION 'ledger: transfer % needs at least two legs', p_key USING ERRCODE = 'LF005';
  END IF;
  SELECT count(*), count(DISTINCT l.code), sum(l.amount), bool_or(l.amount = 0),
         bool_or(l.code IS NULL OR l.amount IS NULL)
  INTO v_legs, v_distinct, v_sum, v_zero, v_null
  FROM unnest(p_codes, p_amounts) AS l(code, amount);
  IF v_null THEN
    RAISE EXCEPTION 'ledger: transfer % has a NULL account or amount', p_key USING ERRCODE = 'LF004';
  END IF;
  IF v_distinct <> v_legs THEN
    RAISE EXCEPTION 'ledger: transfer % names an account twice', p_key USING ERRCODE = 'LF007';
  END IF;
  IF v_zero THEN
    RAISE EXCEPTION 'ledger: transfer % has a zero leg', p_key USING ERRCODE = 'LF006';
  END IF;
  IF v_sum <> 0 THEN
    RAISE EXCEPTION 'ledger: transfer % is not balanced', p_key USING ERRCODE = 'LF003';
  END IF;
  PERFORM set_config('ledger.in_transfer', pg_current_xact_id()::text, true);
  INSERT INTO ledger_transfers (idempotency_key, type, memo) VALUES (p_key, p_type, p_memo)
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING id, created_at INTO v_transfer, v_created;
  IF v_transfer IS NULL THEN
    PERFORM set_config('ledger.in_transfer', '', true);
    RETURN;
  END IF;
  FOR leg IN
    SELECT l.code, l.amount FROM unnest(p_codes, p_amounts) AS l(code, amount) ORDER BY l.code COLLATE "C"
  LOOP
    UPDATE ledger_accounts SET balance = balance + leg.amount
    WHERE code = leg.code
      AND (balance + leg.amount >= 0 OR overdraft = 'unlimited'
        OR (overdraft = 'trade_fee' AND p_type = 'trade_fee'))
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
  PERFORM set_config('ledger.in_transfer', '', true);
END;
$$;
