-- AlterTable
ALTER TABLE "coin_bots" ADD COLUMN     "market_status" TEXT,
ADD COLUMN     "market_status_at" TIMESTAMPTZ(3);

-- The exchange's market stops and resumes trading in the activity log (docs/grid.md#markets-change).
ALTER TABLE "coin_activity" DROP CONSTRAINT "coin_activity_kind";
ALTER TABLE "coin_activity" ADD CONSTRAINT "coin_activity_kind" CHECK ("kind" IN (
    'order_placed', 'order_filled', 'order_cancelled', 'order_rejected', 'started', 'paused',
    'dry_on', 'dry_off', 'settings_changed', 'keys_changed', 'restart_summary',
    'coin_added', 'settings_reset', 'coin_removed', 'market_closed', 'market_reopened'));
