-- Keyset paging of the load-more lists (docs/decisions.md#lists-paged-by-cursor-issue-22).

-- DropIndex
DROP INDEX "lots_coin_bot_id_closed_at_idx";

-- CreateIndex
CREATE INDEX "lots_coin_bot_id_closed_at_seq_idx" ON "lots"("coin_bot_id", "closed_at", "seq");

-- CreateIndex
CREATE INDEX "ledger_entries_account_id_created_at_id_idx" ON "ledger_entries"("account_id", "created_at", "id");
