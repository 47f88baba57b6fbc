/*
  Warnings:

  - A unique constraint covering the columns `[user_id,coin,removal_id]` on the table `coin_bots` will be added. If there are existing duplicate values, this will fail.

*/
-- DropIndex
DROP INDEX "coin_bots_user_id_coin_key";

-- AlterTable
ALTER TABLE "coin_bots" ADD COLUMN     "deleted_at" TIMESTAMPTZ(3),
ADD COLUMN     "removal_id" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE UNIQUE INDEX "coin_bots_user_id_coin_removal_id_key" ON "coin_bots"("user_id", "coin", "removal_id");

-- The portfolio's own user actions join the activity log (docs/grid.md#activity-log).
ALTER TABLE "coin_activity" DROP CONSTRAINT "coin_activity_kind";
ALTER TABLE "coin_activity" ADD CONSTRAINT "coin_activity_kind" CHECK ("kind" IN (
    'order_placed', 'order_filled', 'order_cancelled', 'order_rejected', 'started', 'paused',
    'dry_on', 'dry_off', 'settings_changed', 'keys_changed', 'restart_summary',
    'coin_added', 'settings_reset', 'coin_removed'));
