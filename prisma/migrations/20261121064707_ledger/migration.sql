-- CreateEnum
CREATE TYPE "ledger_account_kind" AS ENUM ('user', 'system');

-- CreateEnum
CREATE TYPE "ledger_transfer_type" AS ENUM ('trade_fee', 'matching_bonus', 'referral_bonus', 'deposit_balance', 'withdraw', 'withdraw_exchange', 'transfer_out', 'transfer_in', 'license_purchase', 'deposit', 'unknown');

-- CreateTable
CREATE TABLE "ledger_accounts" (
    "id" SERIAL NOT NULL,
    "code" TEXT NOT NULL,
    "kind" "ledger_account_kind" NOT NULL,
    "user_id" INTEGER,
    "sub_balance" TEXT,
    "balance" BIGINT NOT NULL DEFAULT 0,
    "allow_negative" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_transfers" (
    "id" BIGSERIAL NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "type" "ledger_transfer_type" NOT NULL,
    "memo" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_transfers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_entries" (
    "id" BIGSERIAL NOT NULL,
    "transfer_id" BIGINT NOT NULL,
    "account_id" INTEGER NOT NULL,
    "amount" BIGINT NOT NULL,
    "balance_after" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ledger_accounts_code_key" ON "ledger_accounts"("code");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_accounts_user_id_sub_balance_key" ON "ledger_accounts"("user_id", "sub_balance");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_transfers_idempotency_key_key" ON "ledger_transfers"("idempotency_key");

-- CreateIndex
CREATE INDEX "ledger_entries_account_id_id_idx" ON "ledger_entries"("account_id", "id");

-- CreateIndex
CREATE INDEX "ledger_entries_transfer_id_idx" ON "ledger_entries"("transfer_id");

-- AddForeignKey
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_transfer_id_fkey" FOREIGN KEY ("transfer_id") REFERENCES "ledger_transfers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "ledger_accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Last line of defence behind the conditional UPDATE in transfer(): no code path can overdraw an
-- account that does not allow it, and no entry moves nothing.
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_no_overdraft" CHECK ("allow_negative" OR "balance" >= 0);
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_amount_nonzero" CHECK ("amount" <> 0);

-- Append-only books: entries and transfers are never changed or removed; corrections are new transfers.
CREATE FUNCTION "ledger_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger is append-only: % on % refused', TG_OP, TG_TABLE_NAME;
END;
$$;
CREATE TRIGGER "ledger_entries_append_only" BEFORE UPDATE OR DELETE ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION "ledger_append_only"();
CREATE TRIGGER "ledger_transfers_append_only" BEFORE UPDATE OR DELETE ON "ledger_transfers"
  FOR EACH ROW EXECUTE FUNCTION "ledger_append_only"();

-- One balanced transfer in one statement (one round trip, atomic without a client transaction);
-- called by transfer() in @gridbot/ledger, which validates the legs first. Returns no rows when the
-- idempotency key was used before (the caller then compares and replays). Legs are applied in
-- account-code order, so transfers over the same accounts lock them in one global order and cannot
-- deadlock. Each leg is a conditional UPDATE: the row lock serialises writers and, under READ
-- COMMITTED, the WHERE is re-checked against the latest committed balance, so no lost update and no
-- overdraft. A refused leg raises, which undoes the whole statement (transfer row included).
CREATE FUNCTION "ledger_transfer"(
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
