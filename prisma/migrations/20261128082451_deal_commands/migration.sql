-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "command_id" INTEGER,
ADD COLUMN     "reject_code" TEXT;

-- CreateTable
CREATE TABLE "deal_commands" (
    "id" SERIAL NOT NULL,
    "coin_bot_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "lot_seqs" INTEGER[],
    "buy_order_id" INTEGER,
    "status" TEXT NOT NULL,
    "code" TEXT,
    "result" JSONB,
    "pending_key" INTEGER,
    "idempotency_key" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "deal_commands_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "deal_commands_pending_key_key" ON "deal_commands"("pending_key");

-- CreateIndex
CREATE INDEX "deal_commands_coin_bot_id_id_idx" ON "deal_commands"("coin_bot_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "deal_commands_user_id_idempotency_key_key" ON "deal_commands"("user_id", "idempotency_key");

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_command_id_fkey" FOREIGN KEY ("command_id") REFERENCES "deal_commands"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "deal_commands" ADD CONSTRAINT "deal_commands_coin_bot_id_fkey" FOREIGN KEY ("coin_bot_id") REFERENCES "coin_bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Deal controls in the activity log (docs/grid.md#deal-controls).
ALTER TABLE "coin_activity" DROP CONSTRAINT "coin_activity_kind";
ALTER TABLE "coin_activity" ADD CONSTRAINT "coin_activity_kind" CHECK ("kind" IN (
    'order_placed', 'order_filled', 'order_cancelled', 'order_rejected', 'started', 'paused',
    'dry_on', 'dry_off', 'settings_changed', 'keys_changed', 'restart_summary',
    'coin_added', 'settings_reset', 'coin_removed', 'market_closed', 'market_reopened',
    'deal_sale_requested', 'buy_cancel_requested', 'deal_command_done'));
