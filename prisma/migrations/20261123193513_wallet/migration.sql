-- CreateEnum
CREATE TYPE "chain_deposit_status" AS ENUM ('pending', 'credited', 'not_credited', 'dropped');

-- CreateEnum
CREATE TYPE "withdrawal_kind" AS ENUM ('withdraw', 'withdraw_exchange');

-- CreateEnum
CREATE TYPE "withdrawal_status" AS ENUM ('pending', 'approved', 'broadcast', 'confirmed', 'rejected', 'failed');

-- CreateTable
CREATE TABLE "wallets" (
    "user_id" INTEGER NOT NULL,
    "derivation_index" INTEGER NOT NULL,
    "deposit_address" TEXT NOT NULL,
    "withdraw_address" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "wallets_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "chain_deposits" (
    "id" SERIAL NOT NULL,
    "txid" TEXT NOT NULL,
    "log_index" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "to_address" TEXT NOT NULL,
    "from_address" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "block_number" BIGINT NOT NULL,
    "block_time" TIMESTAMPTZ(3) NOT NULL,
    "status" "chain_deposit_status" NOT NULL,
    "ledger_transfer_id" BIGINT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "chain_deposits_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "withdrawals" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "kind" "withdrawal_kind" NOT NULL,
    "to_address" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "network_fee" BIGINT NOT NULL,
    "status" "withdrawal_status" NOT NULL,
    "request_key" TEXT,
    "hold_transfer_id" BIGINT,
    "settle_transfer_id" BIGINT,
    "refund_transfer_id" BIGINT,
    "signed_tx" JSONB,
    "txid" TEXT,
    "decided_by" TEXT,
    "reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "approved_at" TIMESTAMPTZ(3),
    "broadcast_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "withdrawals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "chain_cursors" (
    "name" TEXT NOT NULL,
    "block_number" BIGINT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "chain_cursors_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "notifications" (
    "id" BIGSERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "data" JSONB,
    "dedupe_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "wallets_derivation_index_key" ON "wallets"("derivation_index");

-- CreateIndex
CREATE UNIQUE INDEX "wallets_deposit_address_key" ON "wallets"("deposit_address");

-- CreateIndex
CREATE UNIQUE INDEX "chain_deposits_ledger_transfer_id_key" ON "chain_deposits"("ledger_transfer_id");

-- CreateIndex
CREATE INDEX "chain_deposits_user_id_created_at_idx" ON "chain_deposits"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "chain_deposits_status_block_number_idx" ON "chain_deposits"("status", "block_number");

-- CreateIndex
CREATE UNIQUE INDEX "chain_deposits_txid_log_index_key" ON "chain_deposits"("txid", "log_index");

-- CreateIndex
CREATE UNIQUE INDEX "withdrawals_request_key_key" ON "withdrawals"("request_key");

-- CreateIndex
CREATE UNIQUE INDEX "withdrawals_hold_transfer_id_key" ON "withdrawals"("hold_transfer_id");

-- CreateIndex
CREATE UNIQUE INDEX "withdrawals_settle_transfer_id_key" ON "withdrawals"("settle_transfer_id");

-- CreateIndex
CREATE UNIQUE INDEX "withdrawals_refund_transfer_id_key" ON "withdrawals"("refund_transfer_id");

-- CreateIndex
CREATE UNIQUE INDEX "withdrawals_txid_key" ON "withdrawals"("txid");

-- CreateIndex
CREATE INDEX "withdrawals_status_id_idx" ON "withdrawals"("status", "id");

-- CreateIndex
CREATE INDEX "withdrawals_user_id_created_at_idx" ON "withdrawals"("user_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "notifications_dedupe_key_key" ON "notifications"("dedupe_key");

-- CreateIndex
CREATE INDEX "notifications_sent_at_id_idx" ON "notifications"("sent_at", "id");

-- AddForeignKey
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chain_deposits" ADD CONSTRAINT "chain_deposits_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Money columns are positive micro-USDT; a withdrawal's network fee is part of its amount.
ALTER TABLE "chain_deposits" ADD CONSTRAINT "chain_deposits_amount_positive" CHECK ("amount" > 0);
ALTER TABLE "chain_deposits" ADD CONSTRAINT "chain_deposits_credited_has_transfer"
  CHECK (("status" = 'credited') = ("ledger_transfer_id" IS NOT NULL));
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_amounts"
  CHECK ("network_fee" >= 0 AND "amount" > "network_fee");
-- A withdrawal past pending was held; one that was broadcast has its signed bytes and txid.
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_held" CHECK ("hold_transfer_id" IS NOT NULL);
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_broadcast_signed"
  CHECK ("status" NOT IN ('broadcast', 'confirmed') OR ("signed_tx" IS NOT NULL AND "txid" IS NOT NULL));
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_refunded"
  CHECK (("status" IN ('rejected', 'failed')) = ("refund_transfer_id" IS NOT NULL));
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_derivation_index" CHECK ("derivation_index" >= 0);
