-- CreateIndex
-- The latest order of each planner key, one index probe each (docs/grid.md#on-the-exchange): what the
-- coin page and the panel read to say whether a planned order rests on the exchange. The panel's
-- function reads it from the next migration on.
CREATE INDEX "orders_coin_bot_id_key_id_idx" ON "orders"("coin_bot_id", "key", "id");
