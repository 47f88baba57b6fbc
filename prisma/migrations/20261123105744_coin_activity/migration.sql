-- CreateTable
CREATE TABLE "coin_activity" (
    "id" BIGSERIAL NOT NULL,
    "coin_bot_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "kind" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "data" JSONB,
    "dedupe_key" TEXT,

    CONSTRAINT "coin_activity_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "coin_activity_coin_bot_id_id_idx" ON "coin_activity"("coin_bot_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "coin_activity_coin_bot_id_dedupe_key_key" ON "coin_activity"("coin_bot_id", "dedupe_key");

-- AddForeignKey
ALTER TABLE "coin_activity" ADD CONSTRAINT "coin_activity_coin_bot_id_fkey" FOREIGN KEY ("coin_bot_id") REFERENCES "coin_bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The kinds and actors the product knows (packages/services/src/activity/record-activity.ts).
ALTER TABLE "coin_activity" ADD CONSTRAINT "coin_activity_kind" CHECK ("kind" IN (
    'order_placed', 'order_filled', 'order_cancelled', 'order_rejected', 'started', 'paused',
    'dry_on', 'dry_off', 'settings_changed', 'keys_changed', 'restart_summary'));
ALTER TABLE "coin_activity" ADD CONSTRAINT "coin_activity_actor" CHECK ("actor" IN (
    'user', 'engine', 'license', 'fee_balance', 'exchange', 'operator'));
