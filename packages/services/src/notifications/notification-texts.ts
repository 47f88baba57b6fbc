import type { Language } from '@gridbot/contracts';
import { fromMicro } from '@gridbot/ledger';
import type { NotificationData, NotificationKind } from './notification-kinds';

/**
 * Every text the Telegram bot sends, in en, ru and cn, in one place (docs/notifications.md#kinds).
 * Amounts are USDT; micro-USDT from the producers is converted exactly (no floats).
 */
type Texts = { [K in NotificationKind]: (data: NotificationData<K>) => string };

const usdt = (micro: string) => fromMicro(BigInt(micro));
/** The licence level in a sentence: `PRO1 ` before a noun, ` PRO1` after one, nothing when unknown. */
const before = (level?: string) => (level ? `${level} ` : '');
const after = (level?: string) => (level ? ` ${level}` : '');
const signed = (amount: string) => (amount.startsWith('-') ? amount : `+${amount}`);
const coinLines = (coins: Array<{ coin: string; pnl: string }>) =>
  coins.map((c) => `${c.coin}: ${signed(c.pnl)} USDT`).join('\n');

const bonusNames = {
  en: {
    referral_bonus: 'Referral bonus',
    matching_bonus: 'Matching bonus',
    network_expansion_bonus: 'Network expansion bonus',
  },
  ru: {
    referral_bonus: 'Реферальный бонус',
    matching_bonus: 'Матчинг-бонус',
    network_expansion_bonus: 'Бонус за расширение сети',
  },
  cn: { referral_bonus: '推荐奖金', matching_bonus: '对等奖金', network_expansion_bonus: '网络拓展奖金' },
} as const;

const en: Texts = {
  deposit_credited: (d) => `✅ Deposit credited: ${usdt(d.amount)} USDT is on your main balance.`,
  withdrawal_sent: (d) =>
    `📤 Withdrawal sent: ${usdt(d.receives)} USDT is on its way (${usdt(d.amount)} USDT incl. the network fee).${d.txid ? `\nTransaction: ${d.txid}` : ''}`,
  withdrawal_failed: (d) =>
    `⚠️ Your withdrawal of ${usdt(d.amount)} USDT failed on the network. The full amount is back on your main balance.`,
  withdrawal_rejected: (d) =>
    `❌ Your withdrawal of ${d.amount} USDT was rejected: ${d.reason}. The full amount is back on your main balance.`,
  fee_balance_empty: (d) =>
    `⛽ Your fee balance is empty (${usdt(d.feeBalanceMicro)} USDT). Your bots are drying: they only sell until you top it up.`,
  coin_bot_error: (d) =>
    `🛑 The ${d.coin} bot stopped: the exchange refused its orders (${d.code}). Check your API keys and free USDT in the app.`,
  license_expiring: (d) =>
    d.daysLeft <= 1
      ? `⏳ Your ${before(d.level)}licence expires tomorrow. Renew it in the app to keep trading.`
      : `⏳ Your ${before(d.level)}licence expires in ${d.daysLeft} days. Renew it in the app (20 % off in the last 30 days).`,
  license_expired: (d) =>
    `🔒 Your ${before(d?.level)}licence has expired. Your bots are drying: they only sell until you renew or upgrade.`,
  bonus_credited: (d) => `🎁 ${bonusNames.en[d.bonus]}: +${usdt(d.amount)} USDT on your main balance.`,
  daily_pnl: (d) =>
    `📊 Profit on ${d.date}: ${signed(d.pnl)} USDT from ${d.closedTrades} closed trades.${d.coins.length ? `\n${coinLines(d.coins)}` : ''}`,
};

const ru: Texts = {
  deposit_credited: (d) => `✅ Депозит зачислен: ${usdt(d.amount)} USDT на основном балансе.`,
  withdrawal_sent: (d) =>
    `📤 Вывод отправлен: ${usdt(d.receives)} USDT уже в пути (${usdt(d.amount)} USDT с комиссией сети).${d.txid ? `\nТранзакция: ${d.txid}` : ''}`,
  withdrawal_failed: (d) =>
    `⚠️ Вывод ${usdt(d.amount)} USDT не прошёл в сети. Вся сумма возвращена на основной баланс.`,
  withdrawal_rejected: (d) =>
    `❌ Вывод ${d.amount} USDT отклонён: ${d.reason}. Вся сумма возвращена на основной баланс.`,
  fee_balance_empty: (d) =>
    `⛽ Баланс комиссий пуст (${usdt(d.feeBalanceMicro)} USDT). Боты в режиме осушения: только продают, пока вы его не пополните.`,
  coin_bot_error: (d) =>
    `🛑 Бот ${d.coin} остановлен: биржа отклонила его ордера (${d.code}). Проверьте API-ключи и свободные USDT в приложении.`,
  license_expiring: (d) =>
    d.daysLeft <= 1
      ? `⏳ Ваша лицензия${after(d.level)} истекает завтра. Продлите её в приложении, чтобы продолжить торговлю.`
      : `⏳ Ваша лицензия${after(d.level)} истекает через ${d.daysLeft} дн. Продлите её в приложении (скидка 20 % в последние 30 дней).`,
  license_expired: (d) =>
    `🔒 Ваша лицензия${after(d?.level)} истекла. Боты в режиме осушения: только продают, пока вы не продлите или не повысите лицензию.`,
  bonus_credited: (d) => `🎁 ${bonusNames.ru[d.bonus]}: +${usdt(d.amount)} USDT на основном балансе.`,
  daily_pnl: (d) =>
    `📊 Прибыль за ${d.date}: ${signed(d.pnl)} USDT, закрыто сделок: ${d.closedTrades}.${d.coins.length ? `\n${coinLines(d.coins)}` : ''}`,
};

const cn: Texts = {
  deposit_credited: (d) => `✅ 充值已到账：${usdt(d.amount)} USDT 已计入主余额。`,
  withdrawal_sent: (d) =>
    `📤 提现已发出：${usdt(d.receives)} USDT 正在转出（含网络手续费共 ${usdt(d.amount)} USDT）。${d.txid ? `\n交易：${d.txid}` : ''}`,
  withdrawal_failed: (d) => `⚠️ 您的 ${usdt(d.amount)} USDT 提现在链上失败，全部金额已退回主余额。`,
  withdrawal_rejected: (d) => `❌ 您的 ${d.amount} USDT 提现被拒绝：${d.reason}。全部金额已退回主余额。`,
  fee_balance_empty: (d) =>
    `⛽ 手续费余额已用完（${usdt(d.feeBalanceMicro)} USDT）。您的机器人进入清仓模式：充值前只卖不买。`,
  coin_bot_error: (d) =>
    `🛑 ${d.coin} 机器人已停止：交易所拒绝了它的订单（${d.code}）。请在应用中检查 API 密钥和可用 USDT。`,
  license_expiring: (d) =>
    d.daysLeft <= 1
      ? `⏳ 您的${after(d.level)}许可证明天到期。请在应用中续期以继续交易。`
      : `⏳ 您的${after(d.level)}许可证将在 ${d.daysLeft} 天后到期。请在应用中续期（最后 30 天八折）。`,
  license_expired: (d) =>
    `🔒 您的${after(d?.level)}许可证已到期。您的机器人进入清仓模式：续期或升级前只卖不买。`,
  bonus_credited: (d) => `🎁 ${bonusNames.cn[d.bonus]}：+${usdt(d.amount)} USDT 已计入主余额。`,
  daily_pnl: (d) =>
    `📊 ${d.date} 收益：${signed(d.pnl)} USDT，平仓交易 ${d.closedTrades} 笔。${d.coins.length ? `\n${coinLines(d.coins)}` : ''}`,
};

const notificationTexts: Record<Language, Texts> = { en, ru, cn };

/** The message of a notification in the user's language (data already parsed for its kind). */
export const notificationText = <K extends NotificationKind>(
  language: Language,
  kind: K,
  data: NotificationData<K>,
): string => (notificationTexts[language][kind] as (d: NotificationData<K>) => string)(data);

/** What the bot itself says: /start answers, the button that opens the mini app, the menu button. */
export const botTexts: Record<
  Language,
  { welcome: string; welcomeBack: string; inviteOnly: string; openApp: string; menuButton: string }
> = {
  en: {
    welcome:
      'Welcome! Your account is ready. Open the app to connect your exchange keys and start your grid bots.',
    welcomeBack: 'Welcome back! Open the app to see your bots.',
    inviteOnly:
      'This bot is invite-only. Open the referral link of the person who invited you (t.me/…?start=ref_…) to register.',
    openApp: 'Open the app',
    menuButton: 'App',
  },
  ru: {
    welcome:
      'Добро пожаловать! Аккаунт создан. Откройте приложение, чтобы подключить ключи биржи и запустить грид-ботов.',
    welcomeBack: 'С возвращением! Откройте приложение, чтобы увидеть своих ботов.',
    inviteOnly:
      'Регистрация только по приглашению. Откройте реферальную ссылку пригласившего вас (t.me/…?start=ref_…).',
    openApp: 'Открыть приложение',
    menuButton: 'Приложение',
  },
  cn: {
    welcome: '欢迎！您的账户已创建。打开应用连接交易所密钥并启动网格机器人。',
    welcomeBack: '欢迎回来！打开应用查看您的机器人。',
    inviteOnly: '本机器人仅限受邀注册。请打开邀请人的推荐链接（t.me/…?start=ref_…）进行注册。',
    openApp: '打开应用',
    menuButton: '应用',
  },
};
