-- CreateTable
CREATE TABLE "license_purchases" (
    "id" BIGSERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "level" TEXT NOT NULL,
    "previous_level" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "active_from" TIMESTAMPTZ(3) NOT NULL,
    "active_until" TIMESTAMPTZ(3) NOT NULL,
    "transfer_id" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "license_purchases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "referral_bonuses" (
    "id" BIGSERIAL NOT NULL,
    "purchase_id" BIGINT NOT NULL,
    "upline_id" INTEGER NOT NULL,
    "line" SMALLINT NOT NULL,
    "rate_pct" DECIMAL(5,2) NOT NULL,
    "amount" BIGINT NOT NULL,
    "paid" BOOLEAN NOT NULL,
    "transfer_id" BIGINT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "referral_bonuses_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "matching_accruals" (
    "id" BIGSERIAL NOT NULL,
    "fee_transfer_id" BIGINT NOT NULL,
    "partner_id" INTEGER NOT NULL,
    "upline_id" INTEGER NOT NULL,
    "generation" SMALLINT NOT NULL,
    "fee" BIGINT NOT NULL,
    "rate_pct" DECIMAL(5,2) NOT NULL,
    "amount" BIGINT NOT NULL,
    "day" DATE NOT NULL,
    "payout_transfer_id" BIGINT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "matching_accruals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "network_expansion_payouts" (
    "id" BIGSERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "month" DATE NOT NULL,
    "qualifying_partners" INTEGER NOT NULL,
    "pool" BIGINT NOT NULL,
    "amount" BIGINT NOT NULL,
    "transfer_id" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "network_expansion_payouts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "license_purchases_transfer_id_key" ON "license_purchases"("transfer_id");

-- CreateIndex
CREATE INDEX "license_purchases_user_id_created_at_idx" ON "license_purchases"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "license_purchases_created_at_idx" ON "license_purchases"("created_at");

-- CreateIndex
CREATE INDEX "referral_bonuses_upline_id_created_at_idx" ON "referral_bonuses"("upline_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "referral_bonuses_purchase_id_line_key" ON "referral_bonuses"("purchase_id", "line");

-- CreateIndex
CREATE INDEX "matching_accruals_upline_id_day_idx" ON "matching_accruals"("upline_id", "day");

-- CreateIndex
CREATE INDEX "matching_accruals_day_idx" ON "matching_accruals"("day");

-- CreateIndex
CREATE UNIQUE INDEX "matching_accruals_fee_transfer_id_generation_key" ON "matching_accruals"("fee_transfer_id", "generation");

-- CreateIndex
CREATE UNIQUE INDEX "network_expansion_payouts_user_id_month_key" ON "network_expansion_payouts"("user_id", "month");

-- AddForeignKey
ALTER TABLE "license_purchases" ADD CONSTRAINT "license_purchases_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "referral_bonuses" ADD CONSTRAINT "referral_bonuses_purchase_id_fkey" FOREIGN KEY ("purchase_id") REFERENCES "license_purchases"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "referral_bonuses" ADD CONSTRAINT "referral_bonuses_upline_id_fkey" FOREIGN KEY ("upline_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "matching_accruals" ADD CONSTRAINT "matching_accruals_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "matching_accruals" ADD CONSTRAINT "matching_accruals_upline_id_fkey" FOREIGN KEY ("upline_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "network_expansion_payouts" ADD CONSTRAINT "network_expansion_payouts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Money rows are positive micro-USDT; lines and generations are 1–3.
ALTER TABLE "license_purchases" ADD CONSTRAINT "license_purchases_amount_positive" CHECK ("amount" > 0);
ALTER TABLE "license_purchases" ADD CONSTRAINT "license_purchases_kind" CHECK ("kind" IN ('purchase', 'upgrade', 'renewal'));
ALTER TABLE "referral_bonuses" ADD CONSTRAINT "referral_bonuses_line" CHECK ("line" BETWEEN 1 AND 3 AND "amount" >= 0);
ALTER TABLE "matching_accruals" ADD CONSTRAINT "matching_accruals_generation" CHECK ("generation" BETWEEN 1 AND 3 AND "amount" > 0);
ALTER TABLE "network_expansion_payouts" ADD CONSTRAINT "network_expansion_payouts_amount_positive" CHECK ("amount" > 0);
