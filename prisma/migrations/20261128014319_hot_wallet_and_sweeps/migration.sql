-- CreateEnum
CREATE TYPE "withdrawal_waiting_reason" AS ENUM ('hot_wallet_usdt', 'hot_wallet_trx', 'fee_above_max');

-- CreateEnum
CREATE TYPE "sweep_status" AS ENUM ('queued', 'topup_signed', 'topup_sent', 'funded', 'transfer_signed', 'transfer_sent', 'confirmed', 'failed', 'cancelled');

-- AlterTable
ALTER TABLE "withdrawals" ADD COLUMN     "waiting_reason" "withdrawal_waiting_reason";

-- CreateTable
CREATE TABLE "hot_wallet_status" (
    "address" TEXT NOT NULL,
    "usdt" BIGINT NOT NULL,
    "trx_sun" BIGINT NOT NULL,
    "energy_available" BIGINT NOT NULL,
    "energy_limit" BIGINT NOT NULL,
    "bandwidth_available" BIGINT NOT NULL,
    "energy_price_sun" BIGINT NOT NULL,
    "bandwidth_price_sun" BIGINT NOT NULL,
    "read_at" TIMESTAMPTZ(3) NOT NULL,
    "low_usdt_since" TIMESTAMPTZ(3),
    "low_trx_since" TIMESTAMPTZ(3),
    "waiting_since" TIMESTAMPTZ(3),

    CONSTRAINT "hot_wallet_status_pkey" PRIMARY KEY ("address")
);

-- CreateTable
CREATE TABLE "sweeps" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "address" TEXT NOT NULL,
    "open_for" TEXT,
    "amount" BIGINT NOT NULL,
    "destination" TEXT,
    "destination_kind" TEXT,
    "status" "sweep_status" NOT NULL,
    "requested_by" TEXT NOT NULL,
    "reason" TEXT,
    "topup_sun" BIGINT,
    "topup_fee_sun" BIGINT,
    "topup_tx" JSONB,
    "topup_txid" TEXT,
    "fee_limit_sun" BIGINT,
    "transfer_tx" JSONB,
    "transfer_txid" TEXT,
    "energy_used" BIGINT,
    "trx_burned_sun" BIGINT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "topup_sent_at" TIMESTAMPTZ(3),
    "transfer_sent_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "sweeps_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "sweeps_open_for_key" ON "sweeps"("open_for");

-- CreateIndex
CREATE UNIQUE INDEX "sweeps_topup_txid_key" ON "sweeps"("topup_txid");

-- CreateIndex
CREATE UNIQUE INDEX "sweeps_transfer_txid_key" ON "sweeps"("transfer_txid");

-- CreateIndex
CREATE INDEX "sweeps_status_id_idx" ON "sweeps"("status", "id");

-- CreateIndex
CREATE INDEX "sweeps_address_status_idx" ON "sweeps"("address", "status");

-- AddForeignKey
ALTER TABLE "sweeps" ADD CONSTRAINT "sweeps_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A sweep moves something; it is open (one per address) exactly until it ends; its USDT transfer
-- is stored before it can be sent (docs/wallet.md#sweeps).
ALTER TABLE "sweeps" ADD CONSTRAINT "sweeps_amount_positive" CHECK ("amount" > 0);
ALTER TABLE "sweeps" ADD CONSTRAINT "sweeps_open_for" CHECK (
  ("open_for" IS NOT NULL) = ("status" NOT IN ('confirmed', 'failed', 'cancelled'))
  AND ("open_for" IS NULL OR "open_for" = "address")
);
ALTER TABLE "sweeps" ADD CONSTRAINT "sweeps_destination_kind" CHECK ("destination_kind" IS NULL OR "destination_kind" IN ('hot', 'cold'));
ALTER TABLE "sweeps" ADD CONSTRAINT "sweeps_transfer_stored" CHECK (
  "status" NOT IN ('transfer_signed', 'transfer_sent', 'confirmed') OR ("transfer_tx" IS NOT NULL AND "transfer_txid" IS NOT NULL)
);
ALTER TABLE "sweeps" ADD CONSTRAINT "sweeps_topup_stored" CHECK (
  "status" NOT IN ('topup_signed', 'topup_sent') OR ("topup_tx" IS NOT NULL AND "topup_txid" IS NOT NULL)
);
