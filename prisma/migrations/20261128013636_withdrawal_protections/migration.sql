-- AlterTable
ALTER TABLE "wallets" ADD COLUMN     "withdraw_address_usable_from" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "withdrawals" ADD COLUMN     "release_at" TIMESTAMPTZ(3),
ADD COLUMN     "review_reason" TEXT;

-- CreateTable
CREATE TABLE "wallet_freezes" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "frozen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "frozen_by" TEXT NOT NULL,
    "lifted_at" TIMESTAMPTZ(3),
    "lifted_by" TEXT,

    CONSTRAINT "wallet_freezes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "exchange_deposit_addresses" (
    "user_id" INTEGER NOT NULL,
    "address" TEXT NOT NULL,
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "usable_from" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "exchange_deposit_addresses_pkey" PRIMARY KEY ("user_id","address")
);

-- CreateTable
CREATE TABLE "platform_addresses" (
    "address" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "platform_addresses_pkey" PRIMARY KEY ("address")
);

-- CreateIndex
CREATE INDEX "wallet_freezes_user_id_frozen_at_idx" ON "wallet_freezes"("user_id", "frozen_at");

-- AddForeignKey
ALTER TABLE "wallet_freezes" ADD CONSTRAINT "wallet_freezes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "exchange_deposit_addresses" ADD CONSTRAINT "exchange_deposit_addresses_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- At most one freeze in force per user (docs/wallet.md#freeze).
CREATE UNIQUE INDEX "wallet_freezes_in_force_key" ON "wallet_freezes"("user_id") WHERE "lifted_at" IS NULL;

ALTER TABLE "platform_addresses" ADD CONSTRAINT "platform_addresses_role_check"
  CHECK ("role" IN ('hot', 'cold'));

-- Withdrawals still waiting when this ships follow the new rules: the owner is told first
-- (docs/wallet.md#release), and an approved one is released from now on.
UPDATE "withdrawals" SET "release_at" = now() WHERE "status" = 'approved' AND "signed_tx" IS NULL;
INSERT INTO "notifications" ("user_id", "kind", "data", "dedupe_key")
SELECT "user_id", 'withdrawal_requested',
       json_build_object('withdrawalId', "id", 'amount', "amount"::text, 'toAddress', "to_address",
                         'requestedAt', to_char("created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
       'withdrawal_requested:' || "id"
  FROM "withdrawals"
 WHERE "status" IN ('pending', 'approved') AND "signed_tx" IS NULL
ON CONFLICT DO NOTHING;

-- The exchange deposit addresses users already withdrew to are known, not new: usable at once.
INSERT INTO "exchange_deposit_addresses" ("user_id", "address", "first_seen_at", "usable_from")
SELECT "user_id", "to_address", min("created_at"), min("created_at")
  FROM "withdrawals"
 WHERE "kind" = 'withdraw_exchange'
 GROUP BY "user_id", "to_address"
ON CONFLICT DO NOTHING;
