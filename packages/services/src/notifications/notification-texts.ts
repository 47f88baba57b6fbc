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
/** An instant in a message: UTC to the minute (Telegram shows no local time for plain text). */
const at = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
/** The installation's IPs to whitelist, or where to find them when none are known. */
const ipList = (ips: string[], otherwise: string) => (ips.length > 0 ? ips.join(', ') : otherwise);
/** A count with its English noun in the right form ("1 day", "2 days"); ru and cn say counts as labels. */
const enCount = (count: number, one: string, other: string) =>
  `${count} ${new Intl.PluralRules('en').select(count) === 'one' ? one : other}`;
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
  withdrawal_requested: (d) =>
    `🔔 Withdrawal requested: ${usdt(d.amount)} USDT to ${d.toAddress} at ${at(d.requestedAt)}. Nothing has been sent yet. If this wasn't you, press "Freeze withdrawals" now.`,
  withdraw_address_changed: (d) =>
    `🔔 ${d.target === 'exchange' ? 'A new exchange deposit address will receive your withdrawals' : 'Your withdrawal address was changed'}: ${d.address} (${at(d.changedAt)}). It can be used from ${at(d.usableFrom)}. If this wasn't you, press "Freeze withdrawals" now.`,
  withdrawal_stopped: (d) =>
    `🔒 Withdrawal of ${usdt(d.amount)} USDT to ${d.toAddress} stopped: withdrawals are frozen. The full amount is back on your main balance.`,
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
    d.code === 'COIN_NOT_LISTED'
      ? `🛑 The ${d.coin} bot stopped: the exchange no longer lists ${d.coin}/USDT (delisted). Its open orders there are gone; the coin you hold stays in your exchange account.`
      : `🛑 The ${d.coin} bot stopped: the exchange refused its orders (${d.code}). Check your API keys and free USDT in the app.`,
  api_key_expiring: (d) =>
    d.exchange === 'bybit'
      ? `🔑 Bybit ends your API key in ${enCount(d.daysLeft, 'day', 'days')}, on ${at(d.expiresAt)}: a key bound to no IP address lasts 90 days. Bind it to ${ipList(d.ips, 'the IP address(es) shown on the API key screen')} on Bybit (API management → Edit) and it will not expire.`
      : `🔑 Binance ends spot trading of your API key in ${enCount(d.daysLeft, 'day', 'days')}, on ${at(d.expiresAt)}: a key without an IP restriction trades for 30 days only. Restrict it to ${ipList(d.ips, 'the IP address(es) shown on the API key screen')} on Binance (API Management → Edit restrictions) and it will not expire.`,
  api_key_expired: (d) =>
    d.exchange === 'bybit'
      ? `🛑 Bybit has ended your API key (${at(d.expiresAt)}): your bots on Bybit cannot place orders. Create a key bound to ${ipList(d.ips, 'the IP address(es) shown on the API key screen')} on Bybit and save it in the app.`
      : `🛑 Binance has switched off spot trading of your API key (${at(d.expiresAt)}): your bots cannot place orders. Restrict the key to ${ipList(d.ips, 'the IP address(es) shown on the API key screen')}, enable spot trading again on Binance, then check the keys in the app.`,
  license_expiring: (d) =>
    d.daysLeft <= 1
      ? `⏳ Your ${before(d.level)}licence expires tomorrow. Renew it in the app to keep trading.`
      : `⏳ Your ${before(d.level)}licence expires in ${d.daysLeft} days. Renew it in the app (20 % off in the last 30 days).`,
  license_expired: (d) =>
    `🔒 Your ${before(d?.level)}licence has expired. Your bots are drying: they only sell until you renew or upgrade.`,
  bonus_credited: (d) => `🎁 ${bonusNames.en[d.bonus]}: +${usdt(d.amount)} USDT on your main balance.`,
  daily_pnl: (d) =>
    `📊 Profit on ${d.date} (UTC): ${signed(d.pnl)} USDT from ${enCount(d.closedTrades, 'closed trade', 'closed trades')}.${d.coins.length ? `\n${coinLines(d.coins)}` : ''}`,
};

const ru: Texts = {
  withdrawal_requested: (d) =>
    `🔔 Запрошен вывод: ${usdt(d.amount)} USDT на ${d.toAddress} в ${at(d.requestedAt)}. Пока ничего не отправлено. Если это были не вы, сразу нажмите «Заморозить выводы».`,
  withdraw_address_changed: (d) =>
    `🔔 ${d.target === 'exchange' ? 'Выводы пойдут на новый адрес депозита биржи' : 'Адрес вывода изменён'}: ${d.address} (${at(d.changedAt)}). Им можно пользоваться с ${at(d.usableFrom)}. Если это были не вы, сразу нажмите «Заморозить выводы».`,
  withdrawal_stopped: (d) =>
    `🔒 Вывод ${usdt(d.amount)} USDT на ${d.toAddress} остановлен: выводы заморожены. Вся сумма возвращена на основной баланс.`,
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
    d.code === 'COIN_NOT_LISTED'
      ? `🛑 Бот ${d.coin} остановлен: биржа больше не торгует ${d.coin}/USDT (делистинг). Его открытые ордера там сняты; монеты остаются на вашем счёте биржи.`
      : `🛑 Бот ${d.coin} остановлен: биржа отклонила его ордера (${d.code}). Проверьте API-ключи и свободные USDT в приложении.`,
  api_key_expiring: (d) =>
    d.exchange === 'bybit'
      ? `🔑 Bybit отключит ваш API-ключ через ${d.daysLeft} дн., ${at(d.expiresAt)}: ключ без привязки к IP-адресам действует 90 дней. Привяжите его к IP-адресам ${ipList(d.ips, 'с экрана API-ключей')} на Bybit («Управление API» → «Изменить»), и срок не истечёт.`
      : `🔑 Binance отключит спотовую торговлю для вашего API-ключа через ${d.daysLeft} дн., ${at(d.expiresAt)}: ключ без ограничения по IP торгует только 30 дней. Ограничьте его IP-адресами ${ipList(d.ips, 'с экрана API-ключей')} на Binance («Управление API» → «Изменить ограничения»), и срок не истечёт.`,
  api_key_expired: (d) =>
    d.exchange === 'bybit'
      ? `🛑 Bybit отключил ваш API-ключ (${at(d.expiresAt)}): боты на Bybit не могут выставлять ордера. Создайте ключ, привязанный к IP-адресам ${ipList(d.ips, 'с экрана API-ключей')}, на Bybit и сохраните его в приложении.`
      : `🛑 Binance отключил спотовую торговлю для вашего API-ключа (${at(d.expiresAt)}): боты не могут выставлять ордера. Ограничьте ключ IP-адресами ${ipList(d.ips, 'с экрана API-ключей')}, снова включите спотовую торговлю на Binance и проверьте ключи в приложении.`,
  license_expiring: (d) =>
    d.daysLeft <= 1
      ? `⏳ Ваша лицензия${after(d.level)} истекает завтра. Продлите её в приложении, чтобы продолжить торговлю.`
      : `⏳ Ваша лицензия${after(d.level)} истекает через ${d.daysLeft} дн. Продлите её в приложении (скидка 20 % в последние 30 дней).`,
  license_expired: (d) =>
    `🔒 Ваша лицензия${after(d?.level)} истекла. Боты в режиме осушения: только продают, пока вы не продлите или не повысите лицензию.`,
  bonus_credited: (d) => `🎁 ${bonusNames.ru[d.bonus]}: +${usdt(d.amount)} USDT на основном балансе.`,
  daily_pnl: (d) =>
    `📊 Прибыль за ${d.date} (UTC): ${signed(d.pnl)} USDT, закрыто сделок: ${d.closedTrades}.${d.coins.length ? `\n${coinLines(d.coins)}` : ''}`,
};

const cn: Texts = {
  withdrawal_requested: (d) =>
    `🔔 提现申请：${usdt(d.amount)} USDT 转至 ${d.toAddress}，时间 ${at(d.requestedAt)}。尚未发送任何款项。如果不是您本人操作，请立即点击“冻结提现”。`,
  withdraw_address_changed: (d) =>
    `🔔 ${d.target === 'exchange' ? '提现将转入新的交易所充值地址' : '您的提现地址已更改'}：${d.address}（${at(d.changedAt)}）。该地址从 ${at(d.usableFrom)} 起可用。如果不是您本人操作，请立即点击“冻结提现”。`,
  withdrawal_stopped: (d) =>
    `🔒 转至 ${d.toAddress} 的 ${usdt(d.amount)} USDT 提现已停止：提现已冻结。全部金额已退回主余额。`,
  deposit_credited: (d) => `✅ 充值已到账：${usdt(d.amount)} USDT 已计入主余额。`,
  withdrawal_sent: (d) =>
    `📤 提现已发出：${usdt(d.receives)} USDT 正在转出（含网络手续费共 ${usdt(d.amount)} USDT）。${d.txid ? `\n交易：${d.txid}` : ''}`,
  withdrawal_failed: (d) => `⚠️ 您的 ${usdt(d.amount)} USDT 提现在链上失败，全部金额已退回主余额。`,
  withdrawal_rejected: (d) => `❌ 您的 ${d.amount} USDT 提现被拒绝：${d.reason}。全部金额已退回主余额。`,
  fee_balance_empty: (d) =>
    `⛽ 手续费余额已用完（${usdt(d.feeBalanceMicro)} USDT）。您的机器人进入只卖模式：充值前停止买入，只卖不买。`,
  coin_bot_error: (d) =>
    d.code === 'COIN_NOT_LISTED'
      ? `🛑 ${d.coin} 机器人已停止：交易所已下架 ${d.coin}/USDT。它在那里的挂单已撤销；您持有的币仍在交易所账户中。`
      : `🛑 ${d.coin} 机器人已停止：交易所拒绝了它的订单（${d.code}）。请在应用中检查 API 密钥和可用 USDT。`,
  api_key_expiring: (d) =>
    d.exchange === 'bybit'
      ? `🔑 Bybit 将在 ${d.daysLeft} 天后（${at(d.expiresAt)}）停用您的 API 密钥：未绑定 IP 地址的密钥有效期为 90 天。请在 Bybit（API 管理 → 编辑）将其绑定到 ${ipList(d.ips, 'API 密钥页面上显示的 IP 地址')}，即可不再过期。`
      : `🔑 Binance 将在 ${d.daysLeft} 天后（${at(d.expiresAt)}）关闭您 API 密钥的现货交易权限：未设置 IP 限制的密钥只能交易 30 天。请在 Binance（API 管理 → 编辑限制）将其限制为 ${ipList(d.ips, 'API 密钥页面上显示的 IP 地址')}，即可不再过期。`,
  api_key_expired: (d) =>
    d.exchange === 'bybit'
      ? `🛑 Bybit 已停用您的 API 密钥（${at(d.expiresAt)}）：您在 Bybit 上的机器人无法下单。请在 Bybit 创建绑定到 ${ipList(d.ips, 'API 密钥页面上显示的 IP 地址')} 的密钥，并在应用中保存。`
      : `🛑 Binance 已关闭您 API 密钥的现货交易权限（${at(d.expiresAt)}）：您的机器人无法下单。请将密钥限制为 ${ipList(d.ips, 'API 密钥页面上显示的 IP 地址')}，在 Binance 重新开启现货交易，然后在应用中检查密钥。`,
  license_expiring: (d) =>
    d.daysLeft <= 1
      ? `⏳ 您的${after(d.level)}许可证明天到期。请在应用中续期以继续交易。`
      : `⏳ 您的${after(d.level)}许可证将在 ${d.daysLeft} 天后到期。请在应用中续期（最后 30 天八折）。`,
  license_expired: (d) =>
    `🔒 您的${after(d?.level)}许可证已到期。您的机器人进入只卖模式：续期或升级前停止买入，只卖不买。`,
  bonus_credited: (d) => `🎁 ${bonusNames.cn[d.bonus]}：+${usdt(d.amount)} USDT 已计入主余额。`,
  daily_pnl: (d) =>
    `📊 ${d.date}（UTC）收益：${signed(d.pnl)} USDT，平仓交易 ${d.closedTrades} 笔。${d.coins.length ? `\n${coinLines(d.coins)}` : ''}`,
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
  {
    welcome: string;
    welcomeBack: string;
    inviteOnly: string;
    openApp: string;
    menuButton: string;
    /** The one-tap button under security notices (docs/wallet.md#freeze). */
    freezeButton: string;
    /** Answer to a press by someone who is not the account's owner. */
    freezeNotYours: string;
    /** The confirmation: `stopped` withdrawals were stopped, the freeze can be lifted from `liftableFrom`. */
    /** `support`: the installation's support contact (SUPPORT_URL). */
    frozen: (stopped: number, liftableFrom: string, support: string) => string;
    alreadyFrozen: (liftableFrom: string) => string;
  }
> = {
  en: {
    welcome:
      'Welcome! Your account is ready. Open the app to connect your exchange keys and start your grid bots.',
    welcomeBack: 'Welcome back! Open the app to see your bots.',
    inviteOnly:
      'This bot is invite-only. Open the referral link of the person who invited you (t.me/…?start=ref_…) to register.',
    openApp: 'Open the app',
    menuButton: 'App',
    freezeButton: "🔒 Freeze withdrawals — this wasn't me",
    freezeNotYours: 'This button belongs to another account.',
    frozen: (stopped, from, support) =>
      `🔒 Withdrawals are frozen.${stopped > 0 ? ` ${enCount(stopped, 'withdrawal', 'withdrawals')} stopped and refunded to your main balance.` : ''} Nothing can be withdrawn and the address cannot be changed until the freeze is lifted: by you in the app from ${at(from)}, or by support (${support}).`,
    alreadyFrozen: (from) =>
      `🔒 Withdrawals are already frozen. You can lift the freeze in the app from ${at(from)}.`,
  },
  ru: {
    welcome:
      'Добро пожаловать! Аккаунт создан. Откройте приложение, чтобы подключить ключи биржи и запустить грид-ботов.',
    welcomeBack: 'С возвращением! Откройте приложение, чтобы увидеть своих ботов.',
    inviteOnly:
      'Регистрация только по приглашению. Откройте реферальную ссылку пригласившего вас (t.me/…?start=ref_…).',
    openApp: 'Открыть приложение',
    menuButton: 'Приложение',
    freezeButton: '🔒 Заморозить выводы — это не я',
    freezeNotYours: 'Эта кнопка относится к другому аккаунту.',
    frozen: (stopped, from, support) =>
      `🔒 Выводы заморожены.${stopped > 0 ? ` Остановлено выводов: ${stopped}, деньги возвращены на основной баланс.` : ''} Выводить деньги и менять адрес нельзя, пока заморозка не снята: вами в приложении с ${at(from)} или поддержкой (${support}).`,
    alreadyFrozen: (from) => `🔒 Выводы уже заморожены. Снять заморозку в приложении можно с ${at(from)}.`,
  },
  cn: {
    welcome: '欢迎！您的账户已创建。打开应用连接交易所密钥并启动网格机器人。',
    welcomeBack: '欢迎回来！打开应用查看您的机器人。',
    inviteOnly: '本机器人仅限受邀注册。请打开邀请人的推荐链接（t.me/…?start=ref_…）进行注册。',
    openApp: '打开应用',
    menuButton: '应用',
    freezeButton: '🔒 冻结提现——不是我本人操作',
    freezeNotYours: '此按钮属于其他账户。',
    frozen: (stopped, from, support) =>
      `🔒 提现已冻结。${stopped > 0 ? `已停止 ${stopped} 笔提现，款项已退回主余额。` : ''}解除冻结前无法提现或更改地址：您可从 ${at(from)} 起在应用中解除，或由客服（${support}）解除。`,
    alreadyFrozen: (from) => `🔒 提现已处于冻结状态。您可从 ${at(from)} 起在应用中解除冻结。`,
  },
};
