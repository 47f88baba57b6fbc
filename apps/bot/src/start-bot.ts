import {
  type DataContext,
  type DeliverOperatorAlertsResult,
  type DeliverResult,
  deliverNotifications,
  deliverOperatorAlerts,
  previousUtcDay,
  queueDailyPnlSummaries,
} from '@gridbot/services';
import { Bot } from 'grammy';
import { FREEZE_CALLBACK, handleFreezeCallback } from './freeze-callback';
import { setChatMenu } from './mini-app-button';
import { handleOperatorCallback, OPERATOR_CALLBACK, sendOperatorAlert } from './operator-chat';
import { sendNotification } from './send-notification';
import { handleStart } from './start-command';

export type BotOptions = {
  ctx: DataContext;
  token: string;
  /** Bot API root (default Telegram's); the sandbox's stand-in in the demo and in tests. */
  apiRoot?: string | undefined;
  /** The mini app (web_app buttons and the menu button). */
  miniAppUrl: string;
  /** Long-poll updates (/start). Default true; a second replica may only deliver notifications. */
  poll?: boolean;
  /** Look for notifications every this many ms (0: only through `deliverOnce`). Default 2000. */
  notifyIntervalMs?: number;
  /** Queue yesterday's daily PnL summaries every this many ms (0: only through `queueDailySummaries`). Default 10 min. */
  dailySummaryIntervalMs?: number;
};

export type RunningBot = {
  bot: Bot;
  /** One delivery pass (claim, render, send, settle). */
  deliverOnce: () => Promise<DeliverResult>;
  /** One delivery pass of the operators' chat outbox (docs/operations.md#operators-chat). */
  deliverOperatorAlertsOnce: () => Promise<DeliverOperatorAlertsResult>;
  /** Queues the daily PnL summaries of the UTC day before now. */
  queueDailySummaries: () => Promise<{ queued: number }>;
  stop: () => Promise<void>;
};

/** Waits `ms`, or less when `signal` aborts; its abort listener goes with it (a loop sleeps forever). */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    signal.addEventListener('abort', wake, { once: true });
  });

/**
 * The Telegram bot (grammY): `/start` registration, the menu button, the notification sender over
 * the `notifications` outbox (docs/notifications.md) with its "freeze withdrawals" button, and the
 * operators' chat (docs/operations.md#operators-chat). Every transport concern is here; the
 * rules are services.
 */
export const startBot = async (options: BotOptions): Promise<RunningBot> => {
  const { ctx, miniAppUrl } = options;
  const apiRoot = options.apiRoot?.replace(/\/+$/, '');
  // A send must finish well inside a notification's claim (120 s); long polls take 30 s.
  const bot = new Bot(options.token, { client: { ...(apiRoot ? { apiRoot } : {}), timeoutSeconds: 60 } });
  bot.command('start', (c) => handleStart(ctx, miniAppUrl, c));
  bot.callbackQuery(FREEZE_CALLBACK, (c) => handleFreezeCallback(ctx, c));
  bot.callbackQuery(OPERATOR_CALLBACK, (c) => handleOperatorCallback(ctx, c));
  bot.catch((error) =>
    ctx.log.error({ err: error.error, updateId: error.ctx.update.update_id }, 'bot update failed'),
  );
  await bot.init();
  await setChatMenu(bot.api, 'en', miniAppUrl);
  await bot.api.setMyCommands([{ command: 'start', description: 'Open the grid bot' }]);
  await bot.api.setMyCommands([{ command: 'start', description: 'Открыть грид-бота' }], {
    language_code: 'ru',
  });
  await bot.api.setMyCommands([{ command: 'start', description: '打开网格机器人' }], { language_code: 'zh' });

  const deliverOnce = () =>
    deliverNotifications(ctx, { send: (message) => sendNotification(bot.api, miniAppUrl, message) });
  const deliverOperatorAlertsOnce = () =>
    deliverOperatorAlerts(ctx, { send: (alert) => sendOperatorAlert(bot.api, alert) });
  const queueDailySummaries = () => queueDailyPnlSummaries(ctx, { date: previousUtcDay(ctx.clock.now()) });

  const stopping = new AbortController();
  const loops: Promise<void>[] = [];
  const every = (intervalMs: number, name: string, pass: () => Promise<number>) => {
    if (intervalMs <= 0) return;
    const run = async () => {
      while (!stopping.signal.aborted) {
        let waitMs = intervalMs;
        try {
          waitMs = await pass();
        } catch (error) {
          ctx.log.error({ err: error }, `${name} failed`);
        }
        await sleep(waitMs, stopping.signal);
      }
    };
    loops.push(run());
  };
  const notifyMs = options.notifyIntervalMs ?? 2000;
  every(notifyMs, 'notification delivery', async () => {
    const result = await deliverOnce();
    if (result.claimed > 0) ctx.log.debug({ ...result }, 'notifications delivered');
    // A full batch: go on at once; Telegram's flood wait: as long as it says.
    return result.pauseMs || (result.claimed > 0 ? 0 : notifyMs);
  });
  every(notifyMs, 'operator alert delivery', async () => {
    const result = await deliverOperatorAlertsOnce();
    return result.pauseMs || (result.claimed > 0 ? 0 : notifyMs);
  });
  const dailyMs = options.dailySummaryIntervalMs ?? 600_000;
  every(dailyMs, 'daily PnL summaries', async () => {
    await queueDailySummaries();
    return dailyMs;
  });

  const polling =
    options.poll === false
      ? undefined
      : bot.start({ drop_pending_updates: false }).catch((error: unknown) => {
          ctx.log.error({ err: error }, 'bot polling stopped');
        });

  return {
    bot,
    deliverOnce,
    deliverOperatorAlertsOnce,
    queueDailySummaries,
    stop: async () => {
      stopping.abort();
      if (polling) {
        await bot.stop();
        await polling;
      }
      await Promise.all(loops);
    },
  };
};
