/*
  Warnings:

  - A unique constraint covering the columns `[live_key]` on the table `orders` will be added. If there are existing duplicate values, this will fail.

*/
-- AlterTable
ALTER TABLE "coin_bots" ADD COLUMN     "carry_cost" DECIMAL(36,18) NOT NULL DEFAULT 0,
ADD COLUMN     "carry_qty" DECIMAL(36,18) NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "live_key" TEXT;

-- CreateTable
CREATE TABLE "installation" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "salt" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "installation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "price_marks" (
    "venue" TEXT NOT NULL,
    "symbol" TEXT NOT NULL,
    "price" DECIMAL(36,18) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "price_marks_pkey" PRIMARY KEY ("venue","symbol")
);

-- CreateIndex
CREATE UNIQUE INDEX "orders_live_key_key" ON "orders"("live_key");
