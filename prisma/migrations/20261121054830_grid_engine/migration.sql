-- AlterTable
ALTER TABLE "users" ADD COLUMN     "dry_all" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "exchange_accounts" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "exchange" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "api_key" TEXT NOT NULL,
    "secret_cipher" BYTEA NOT NULL,
    "secret_iv" BYTEA NOT NULL,
    "key_id" TEXT NOT NULL,
    "can_trade" BOOLEAN NOT NULL DEFAULT false,
    "can_withdraw" BOOLEAN NOT NULL DEFAULT false,
    "checked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "exchange_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "coin_bots" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "exchange_account_id" INTEGER NOT NULL,
    "coin" TEXT NOT NULL,
    "symbol" TEXT NOT NULL,
    "order_size" DECIMAL(36,18) NOT NULL,
    "step_pct" DECIMAL(12,6) NOT NULL,
    "step_increase_pct" DECIMAL(12,6) NOT NULL,
    "max_trades" INTEGER NOT NULL,
    "dry" BOOLEAN NOT NULL DEFAULT false,
    "running" BOOLEAN NOT NULL DEFAULT false,
    "started_at" TIMESTAMPTZ(3),
    "next_seq" INTEGER NOT NULL DEFAULT 1,
    "last_error" TEXT,
    "lock_owner" TEXT,
    "lock_until" TIMESTAMPTZ(3),
    "reconciled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "coin_bots_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lots" (
    "id" SERIAL NOT NULL,
    "coin_bot_id" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "buy_price" DECIMAL(36,18) NOT NULL,
    "qty" DECIMAL(36,18) NOT NULL,
    "cost" DECIMAL(36,18) NOT NULL,
    "opened_at" TIMESTAMPTZ(3) NOT NULL,
    "sell_price" DECIMAL(36,18),
    "proceeds" DECIMAL(36,18),
    "pnl" DECIMAL(36,18),
    "closed_at" TIMESTAMPTZ(3),

    CONSTRAINT "lots_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "orders" (
    "id" SERIAL NOT NULL,
    "coin_bot_id" INTEGER NOT NULL,
    "client_order_id" TEXT NOT NULL,
    "exchange_order_id" TEXT,
    "key" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "side" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "symbol" TEXT NOT NULL,
    "price" DECIMAL(36,18),
    "qty" DECIMAL(36,18),
    "quote_amount" DECIMAL(36,18),
    "lot_seq" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "filled_qty" DECIMAL(36,18) NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "fills" (
    "id" SERIAL NOT NULL,
    "order_id" INTEGER NOT NULL,
    "coin_bot_id" INTEGER NOT NULL,
    "exchange_trade_id" TEXT NOT NULL,
    "price" DECIMAL(36,18) NOT NULL,
    "qty" DECIMAL(36,18) NOT NULL,
    "quote_qty" DECIMAL(36,18) NOT NULL,
    "fee_quote" DECIMAL(36,18) NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "fills_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "daily_pnl" (
    "coin_bot_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "date" DATE NOT NULL,
    "realized_pnl" DECIMAL(36,18) NOT NULL,
    "closed_trades" INTEGER NOT NULL,
    "profitable_trades" INTEGER NOT NULL,

    CONSTRAINT "daily_pnl_pkey" PRIMARY KEY ("coin_bot_id","date")
);

-- CreateIndex
CREATE UNIQUE INDEX "exchange_accounts_user_id_exchange_key" ON "exchange_accounts"("user_id", "exchange");

-- CreateIndex
CREATE INDEX "coin_bots_running_reconciled_at_idx" ON "coin_bots"("running", "reconciled_at");

-- CreateIndex
CREATE UNIQUE INDEX "coin_bots_user_id_coin_key" ON "coin_bots"("user_id", "coin");

-- CreateIndex
CREATE INDEX "lots_coin_bot_id_closed_at_idx" ON "lots"("coin_bot_id", "closed_at");

-- CreateIndex
CREATE UNIQUE INDEX "lots_coin_bot_id_seq_key" ON "lots"("coin_bot_id", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "orders_client_order_id_key" ON "orders"("client_order_id");

-- CreateIndex
CREATE INDEX "orders_symbol_status_side_price_idx" ON "orders"("symbol", "status", "side", "price");

-- CreateIndex
CREATE INDEX "orders_coin_bot_id_status_idx" ON "orders"("coin_bot_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "fills_coin_bot_id_exchange_trade_id_key" ON "fills"("coin_bot_id", "exchange_trade_id");

-- CreateIndex
CREATE INDEX "daily_pnl_user_id_date_idx" ON "daily_pnl"("user_id", "date");

-- AddForeignKey
ALTER TABLE "exchange_accounts" ADD CONSTRAINT "exchange_accounts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "coin_bots" ADD CONSTRAINT "coin_bots_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "coin_bots" ADD CONSTRAINT "coin_bots_exchange_account_id_fkey" FOREIGN KEY ("exchange_account_id") REFERENCES "exchange_accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lots" ADD CONSTRAINT "lots_coin_bot_id_fkey" FOREIGN KEY ("coin_bot_id") REFERENCES "coin_bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_coin_bot_id_fkey" FOREIGN KEY ("coin_bot_id") REFERENCES "coin_bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "fills" ADD CONSTRAINT "fills_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "fills" ADD CONSTRAINT "fills_coin_bot_id_fkey" FOREIGN KEY ("coin_bot_id") REFERENCES "coin_bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "daily_pnl" ADD CONSTRAINT "daily_pnl_coin_bot_id_fkey" FOREIGN KEY ("coin_bot_id") REFERENCES "coin_bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;
