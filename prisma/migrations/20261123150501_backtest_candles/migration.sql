-- CreateTable
CREATE TABLE "candles" (
    "venue" TEXT NOT NULL,
    "symbol" TEXT NOT NULL,
    "interval" TEXT NOT NULL,
    "open_time" BIGINT NOT NULL,
    "open" DECIMAL NOT NULL,
    "high" DECIMAL NOT NULL,
    "low" DECIMAL NOT NULL,
    "close" DECIMAL NOT NULL,
    "volume" DECIMAL NOT NULL,

    CONSTRAINT "candles_pkey" PRIMARY KEY ("venue","symbol","interval","open_time")
);

-- CreateTable
CREATE TABLE "candle_coverage" (
    "id" SERIAL NOT NULL,
    "venue" TEXT NOT NULL,
    "symbol" TEXT NOT NULL,
    "interval" TEXT NOT NULL,
    "from_time" BIGINT NOT NULL,
    "to_time" BIGINT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "candle_coverage_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "candle_coverage_venue_symbol_interval_to_time_idx" ON "candle_coverage"("venue", "symbol", "interval", "to_time");
