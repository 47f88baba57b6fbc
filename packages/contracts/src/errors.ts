import type { Language } from './core';

/**
 * The error catalogue. `message` is the exact server message of docs/errors.md (the client maps it to its
 * text); `detail` is the human sentence in each language. Codes are stable for code and tests.
 */
type CatalogueEntry = { status: number; message: string; detail: Record<Language, string> };

const entry = (status: number, message: string, en: string, ru: string, cn: string): CatalogueEntry => ({
  status,
  message,
  detail: { en, ru, cn },
});

export const errorCatalogue = {
  // --- sign-in (docs/errors.md "Login failures") ---
  INIT_DATA_MISSING: entry(
    400,
    'initData отсутствует',
    'Launch data is missing. Close the mini app and press "Open" in Telegram again in a couple of seconds.',
    'initData отсутствует. Пожалуйста, закройте WebApp и снова нажмите кнопку "Открыть" в Telegram через пару секунд.',
    '缺少启动数据。请关闭小程序，几秒钟后在 Telegram 中再次点击“打开”。',
  ),
  INIT_DATA_INVALID: entry(
    401,
    'Invalid initData',
    'The launch data is invalid or has expired. Close and reopen the mini app in Telegram.',
    'Данные запуска недействительны или устарели. Закройте и снова откройте WebApp в Telegram.',
    '启动数据无效或已过期。请在 Telegram 中关闭并重新打开小程序。',
  ),
  NO_USER: entry(
    403,
    'No User',
    'Only registered users can sign in. Get a referral link from the person who invited you or contact support.',
    'Вход только для зарегистрированных пользователей. Получите реферальную ссылку у пригласившего вас или напишите в поддержку.',
    '仅限注册用户登录。请向邀请人索取推荐链接或联系客服。',
  ),
  NO_NICKNAME: entry(
    403,
    'No Nickname',
    'Set a username in Telegram (Settings → My Profile → Edit → Username) and try again.',
    'Установите имя пользователя в Telegram (Настройки → Мой профиль → Изменить → Имя пользователя) и повторите попытку.',
    '请在 Telegram 中设置用户名（设置 → 我的资料 → 编辑 → 用户名）后重试。',
  ),
  NO_NICKNAME_IN_DB: entry(
    403,
    'No Nickname in DB',
    'Your username was not found. Use the correct link and make sure your account is registered.',
    'Ваше имя пользователя не найдено. Используйте правильную ссылку и убедитесь, что аккаунт зарегистрирован.',
    '未找到您的用户名。请使用正确的链接并确认账户已注册。',
  ),
  REFERRAL_CODE_UNKNOWN: entry(
    403,
    'No User',
    'This referral link is not valid. Ask the person who invited you for a new link.',
    'Эта реферальная ссылка недействительна. Попросите пригласившего вас прислать новую ссылку.',
    '该推荐链接无效。请向邀请人索取新的链接。',
  ),
  ACCOUNT_BLOCKED: entry(
    403,
    'Account blocked',
    'This account has been blocked by the operator. Contact support to find out why.',
    'Этот аккаунт заблокирован оператором. Напишите в поддержку, чтобы узнать причину.',
    '该账户已被运营方封禁。请联系客服了解原因。',
  ),
  // --- session ---
  UNAUTHORIZED: entry(
    401,
    'Unauthorized',
    'Your session has expired. Please sign in again.',
    'Сессия истекла. Пожалуйста, войдите снова.',
    '会话已过期，请重新登录。',
  ),
  EXPORT_LINK_INVALID: entry(
    401,
    'Download link is invalid or expired',
    'This download link is invalid or has expired. Press "Export CSV" in the mini app again.',
    'Ссылка для скачивания недействительна или устарела. Нажмите «Экспорт CSV» в мини-приложении ещё раз.',
    '该下载链接无效或已过期。请在小程序中再次点击“导出 CSV”。',
  ),
  RATE_LIMITED: entry(
    429,
    'Too many requests. Please try again later.',
    'Too many requests. Please try again later.',
    'Слишком много запросов. Пожалуйста, попробуйте позже.',
    '请求过于频繁，请稍后再试。',
  ),
  // --- input ---
  VALIDATION: entry(
    400,
    'Validation error',
    'Some fields are invalid.',
    'Некоторые поля заполнены неверно.',
    '部分字段无效。',
  ),
  CONFIG_VALUE_INVALID: entry(
    400,
    'Validation error',
    'This value is not allowed for this setting.',
    'Это значение недопустимо для данной настройки.',
    '此设置不允许该值。',
  ),
  NOT_FOUND: entry(404, 'Not found', 'Not found.', 'Не найдено.', '未找到。'),
  PAYLOAD_TOO_LARGE: entry(
    413,
    'Payload too large',
    'The request is too large.',
    'Слишком большой запрос.',
    '请求过大。',
  ),
  NOT_IMPLEMENTED: entry(
    501,
    'Not implemented',
    'This feature is not available yet.',
    'Эта функция пока недоступна.',
    '此功能暂不可用。',
  ),
  // --- trading (docs/errors.md "Server messages") ---
  EXCHANGE_BALANCE_ZERO: entry(
    422,
    'Your USDT balance on the exchange account should be more than zero',
    'Your USDT balance on the exchange account should be more than zero.',
    'Баланс USDT на вашем биржевом аккаунте должен быть больше нуля.',
    '您交易所账户的 USDT 余额必须大于零。',
  ),
  FEE_BALANCE_EMPTY: entry(
    422,
    'To start, you need to top up your wallet to pay trading fees',
    'To start, top up your wallet to pay trading fees.',
    'Чтобы начать, пополните кошелёк для оплаты торговых комиссий.',
    '开始之前，请为钱包充值以支付交易手续费。',
  ),
  NO_API_CONNECTION: entry(
    422,
    'No API connection',
    'Failed to start trading: check your API keys.',
    'Не удалось запустить торговлю: проверьте API-ключи.',
    '无法开始交易：请检查您的 API 密钥。',
  ),
  LICENSE_BALANCE_LIMIT: entry(
    422,
    'You have reached your license balance limit.',
    'You have reached your license balance limit.',
    'Вы достигли лимита баланса вашей лицензии.',
    '您已达到许可证的余额上限。',
  ),
  LICENSE_EXPIRED: entry(
    422,
    'Limit expiration of free license, cannot start trading.',
    'Your license has expired: renew or upgrade it to start trading.',
    'Срок действия лицензии истёк: продлите или повысьте её, чтобы начать торговлю.',
    '您的许可证已过期：请续期或升级后再开始交易。',
  ),
  COIN_LIMIT: entry(
    422,
    'You have exceeded the number of coins in your portfolio',
    'You have exceeded the number of coins allowed by your license.',
    'Вы превысили количество монет в портфеле, допустимое вашей лицензией.',
    '您已超过许可证允许的投资组合币种数量。',
  ),
  /** "Start all" on an empty portfolio: nothing to start, nothing changes. */
  NO_COINS_TO_START: entry(
    422,
    'No coins to start',
    'There are no coins in your portfolio to start: add a coin first. Nothing was changed.',
    'В портфеле нет монет для запуска: сначала добавьте монету. Ничего не изменилось.',
    '投资组合中没有可启动的币种：请先添加币种。未做任何更改。',
  ),
  // --- wallet ---
  INSUFFICIENT_FUNDS: entry(
    422,
    "You don't have enough money on your account",
    "You don't have enough money on your account.",
    'На вашем счёте недостаточно средств.',
    '您的账户余额不足。',
  ),
  WITHDRAW_ADDRESS_FORMAT: entry(
    400,
    'Withdrawal address format error',
    'Withdrawal address format error: use a USDT TRC20 address.',
    'Ошибка формата адреса вывода: используйте адрес USDT TRC20.',
    '提现地址格式错误：请使用 USDT TRC20 地址。',
  ),
  DEPOSIT_ADDRESS_NOT_FOUND: entry(
    404,
    'Адрес депозита не найден',
    'Deposit address not found.',
    'Адрес депозита не найден.',
    '未找到充值地址。',
  ),
  TRANSFER_TO_SELF: entry(
    400,
    'You cannot transfer to yourself',
    'You cannot transfer to yourself.',
    'Нельзя перевести средства самому себе.',
    '不能转账给自己。',
  ),
  TRANSFER_RECIPIENT_MISSING: entry(
    404,
    'User not found',
    'The user to transfer to is not in the database.',
    'Пользователь для перевода не найден в базе данных.',
    '数据库中没有该收款用户。',
  ),
  RECIPIENT_LOOKUPS_EXHAUSTED: entry(
    429,
    'Too many lookups of unknown users',
    'You have entered too many UIDs that do not exist. Recipient lookups are paused for up to 24 hours; check the UID with the recipient.',
    'Вы ввели слишком много несуществующих UID. Поиск получателей приостановлен на срок до 24 часов; уточните UID у получателя.',
    '您输入了过多不存在的 UID。收款人查询已暂停，最长 24 小时；请向收款人核实 UID。',
  ),
  // --- licences ---
  LICENSE_UPDATE_FAILED: entry(
    422,
    'Failed to update licence, try again later',
    'Failed to update the licence, try again later.',
    'Не удалось обновить лицензию, попробуйте позже.',
    '许可证更新失败，请稍后再试。',
  ),
  // --- portfolio and exchange ---
  COIN_NOT_FOUND: entry(
    404,
    'Coin not found',
    'This coin is not in your portfolio.',
    'Этой монеты нет в вашем портфеле.',
    '您的投资组合中没有该币种。',
  ),
  COIN_ALREADY_ADDED: entry(
    409,
    'Coin is already in your portfolio',
    'This coin is already in your portfolio on this exchange.',
    'Эта монета уже есть в вашем портфеле на этой бирже.',
    '该币种已在您此交易所的投资组合中。',
  ),
  EXCHANGE_REQUIRED: entry(
    400,
    'Choose the exchange',
    'You have API keys on several exchanges: choose the exchange.',
    'У вас подключены ключи нескольких бирж: выберите биржу.',
    '您已连接多个交易所的 API 密钥：请选择交易所。',
  ),
  COIN_NOT_LISTED: entry(
    422,
    'Coin is not available on your exchange',
    'This coin has no USDT market on your exchange.',
    'У этой монеты нет рынка к USDT на вашей бирже.',
    '该币种在您的交易所没有 USDT 交易对。',
  ),
  API_KEYS_MISSING: entry(
    422,
    'Connect your exchange API keys first',
    'Connect your exchange API keys first: coins are traded and backtested on your own exchange account.',
    'Сначала подключите API-ключи биржи: монеты торгуются и тестируются на вашем собственном аккаунте биржи.',
    '请先连接交易所 API 密钥：币种在您自己的交易所账户上交易和回测。',
  ),
  ORDER_BELOW_EXCHANGE_MIN: entry(
    422,
    'Order size is below the exchange minimum',
    'The order size is below the minimum order of this market on your exchange.',
    'Размер ордера меньше минимального ордера этого рынка на вашей бирже.',
    '订单金额低于您交易所该市场的最小下单额。',
  ),
  MAX_TRADES_ABOVE_EXCHANGE_LIMIT: entry(
    422,
    'Purchase limit is above the open orders the exchange allows',
    'The purchase limit is above the number of open orders this market allows on your exchange (each open lot keeps a take profit order resting). Lower the purchase limit.',
    'Лимит покупок больше числа открытых ордеров, которое ваша биржа допускает на этом рынке (у каждой открытой сделки стоит свой ордер тейк-профита). Уменьшите лимит покупок.',
    '购买上限超过了您的交易所在该市场允许的挂单数量（每笔未平仓交易都挂有一笔止盈单）。请降低购买上限。',
  ),
  DEEPEST_BUY_BELOW_EXCHANGE_PRICE_LIMIT: entry(
    422,
    'The deepest buy is below the price range the exchange accepts',
    'The deepest averaging buys would be priced further below the market than this market accepts on your exchange, so they would be refused. Lower the step, the step increase or the purchase limit.',
    'Самые глубокие докупки оказались бы ниже рынка сильнее, чем ваша биржа допускает на этом рынке, и она бы их отклонила. Уменьшите шаг, увеличение шага или лимит покупок.',
    '最深的补仓买单价格低于市场的幅度超出了您的交易所在该市场允许的范围，将被拒绝。请减小步长、步长增量或购买上限。',
  ),
  EXCHANGE_UNAVAILABLE: entry(
    502,
    'Exchange is unavailable',
    'The exchange did not answer. Please try again later.',
    'Биржа не отвечает. Пожалуйста, попробуйте позже.',
    '交易所无响应，请稍后再试。',
  ),
  // --- API keys (docs/product.md#validation: spot trading permission required; docs/security.md: withdrawals refused) ---
  API_KEY_INVALID: entry(
    422,
    'Invalid API key',
    'The exchange rejected these API keys. Check the key and the secret.',
    'Биржа отклонила эти API-ключи. Проверьте ключ и секрет.',
    '交易所拒绝了这些 API 密钥。请检查密钥和私钥。',
  ),
  API_KEY_NO_SPOT: entry(
    422,
    'API keys need spot trading permission enabled',
    'Enable spot trading permission for these API keys on the exchange.',
    'Включите для этих API-ключей разрешение на спотовую торговлю на бирже.',
    '请在交易所为这些 API 密钥开启现货交易权限。',
  ),
  API_KEY_ACCOUNT_TYPE: entry(
    422,
    'The exchange account type cannot be traded',
    'These keys belong to a Bybit classic account: the bot trades from a Unified Trading Account. Upgrade the account on Bybit, then save the keys again.',
    'Эти ключи от классического аккаунта Bybit: бот торгует с единого торгового аккаунта. Перейдите на него в Bybit и сохраните ключи снова.',
    '这些密钥属于 Bybit 经典账户：机器人使用统一交易账户交易。请在 Bybit 升级账户后重新保存密钥。',
  ),
  API_KEY_WITHDRAW_ENABLED: entry(
    422,
    'API keys with withdrawal permission are not allowed',
    'For your safety, disable the withdrawal permission of these API keys on the exchange.',
    'В целях безопасности отключите для этих API-ключей разрешение на вывод средств на бирже.',
    '为了您的安全，请在交易所关闭这些 API 密钥的提现权限。',
  ),
  API_KEY_IP_NOT_ALLOWED: entry(
    422,
    'API key does not accept this server IP',
    "Binance refused these keys from this server's IP address. The key is probably restricted to trusted IPs: on Binance, open API Management → Edit restrictions and add the IP address(es) shown on the API key screen. If the key has no restriction, check that it still exists.",
    'Binance отклонил эти ключи с IP-адреса нашего сервера. Скорее всего, ключ ограничен доверенными IP: на Binance откройте «Управление API» → «Изменить ограничения» и добавьте IP-адрес(а), указанные на экране API-ключей. Если ограничения нет, проверьте, что ключ всё ещё существует.',
    'Binance 拒绝了来自本服务器 IP 地址的这些密钥请求。该密钥很可能仅限受信任的 IP 访问：请在 Binance 打开“API 管理”→“编辑限制”，添加 API 密钥页面上显示的 IP 地址。如果密钥没有 IP 限制，请确认它仍然存在。',
  ),
  API_KEY_TRADING_EXPIRED: entry(
    422,
    'API key trading permission has expired',
    'Binance switched off spot trading for this key: a key without an IP restriction may trade for 30 days only. Restrict the key to the IP address(es) shown on the API key screen and enable spot trading again (a restricted key does not expire), then check the keys.',
    'Binance отключил спотовую торговлю для этого ключа: ключ без ограничения по IP может торговать только 30 дней. Ограничьте ключ IP-адресами с экрана API-ключей и снова включите спотовую торговлю (у ключа с ограничением по IP срок не истекает), затем проверьте ключи.',
    'Binance 已关闭此密钥的现货交易权限：未设置 IP 限制的密钥只能交易 30 天。请将密钥限制为 API 密钥页面上显示的 IP 地址并重新开启现货交易（有 IP 限制的密钥不会过期），然后重新检查密钥。',
  ),
  API_KEY_OTHER_ACCOUNT: entry(
    409,
    'These API keys belong to another exchange account',
    'These keys belong to a different Binance account than the saved ones, and some coins have open deals on the previous account. If you save them: the coins\' resting orders on the previous account are cancelled, their open deals are closed in the books as "left on the previous account" (the coins stay there: sell them on Binance yourself; no profit or loss is booked), and these coins are paused and start afresh on the new account when you start them. Save again to confirm.',
    'Эти ключи принадлежат другому аккаунту Binance, а у некоторых монет есть открытые сделки на прежнем аккаунте. Если сохранить их: выставленные ордера этих монет на прежнем аккаунте будут отменены, их открытые сделки закрыты в учёте как «оставленные на прежнем аккаунте» (монеты остаются там — продайте их на Binance сами; прибыль и убыток не учитываются), а сами монеты будут поставлены на паузу и начнут заново на новом аккаунте, когда вы их запустите. Сохраните ещё раз для подтверждения.',
    '这些密钥属于与已保存密钥不同的 Binance 账户，且部分币种在原账户上仍有未平仓交易。如果保存：这些币种在原账户上的挂单将被撤销，其未平仓交易在账目中以“留在原账户”结算（币仍在原账户中，请自行在 Binance 卖出；不计入盈亏），这些币种将被暂停，启动后在新账户上重新开始。请再次保存以确认。',
  ),
  // --- partners and access ---
  FORBIDDEN: entry(
    403,
    'Forbidden',
    'You do not have access to this data.',
    'У вас нет доступа к этим данным.',
    '您无权访问这些数据。',
  ),
  PARTNER_NOT_FOUND: entry(
    404,
    'Partner not found',
    'This user is not in your partner structure.',
    'Этого пользователя нет в вашей партнёрской структуре.',
    '该用户不在您的伙伴结构中。',
  ),
  // --- wallet addresses ---
  WITHDRAW_ADDRESS_MISSING: entry(
    422,
    'Withdrawal address is required',
    'Add a USDT TRC20 withdrawal address first.',
    'Сначала добавьте адрес вывода USDT TRC20.',
    '请先添加 USDT TRC20 提现地址。',
  ),
  WITHDRAW_ADDRESS_EXISTS: entry(
    409,
    'Withdrawal address already set',
    'A withdrawal address is already saved: change it instead.',
    'Адрес вывода уже сохранён: измените его.',
    '已保存提现地址，请改为修改该地址。',
  ),
  WITHDRAW_ADDRESS_IS_DEPOSIT: entry(
    400,
    'Withdrawal address is your deposit address',
    'This is your own deposit address: enter the address of another wallet.',
    'Это ваш собственный адрес депозита: укажите адрес другого кошелька.',
    '这是您自己的充值地址：请填写其他钱包的地址。',
  ),
  // --- withdrawal protections (docs/wallet.md#protections); `{until}` is the instant of the
  // error's `until`, written in the reader's time by the client and in UTC by the server ---
  WITHDRAW_ADDRESS_LOCKED: entry(
    423,
    'Withdrawal address is not usable yet',
    'For your safety, a new or changed withdrawal address can be used only from {until}.',
    'В целях безопасности новый или изменённый адрес вывода можно использовать только с {until}.',
    '为了您的安全，新设置或修改的提现地址只能从 {until} 起使用。',
  ),
  WITHDRAWALS_FROZEN: entry(
    423,
    'Withdrawals are frozen',
    'Withdrawals from this account are frozen. You can lift the freeze on the wallet screen from {until}, or ask support.',
    'Выводы с этого аккаунта заморожены. Снять заморозку можно на экране кошелька с {until} или через поддержку.',
    '该账户的提现已冻结。您可从 {until} 起在钱包页面解除冻结，或联系客服。',
  ),
  FREEZE_LIFT_TOO_EARLY: entry(
    423,
    'The freeze cannot be lifted yet',
    'For your safety, you can lift the freeze from {until}. Support can lift it earlier.',
    'В целях безопасности снять заморозку можно с {until}. Поддержка может снять её раньше.',
    '为了您的安全，您可从 {until} 起解除冻结。客服可以提前解除。',
  ),
  NOT_FROZEN: entry(
    409,
    'Withdrawals are not frozen',
    'Withdrawals from this account are not frozen.',
    'Выводы с этого аккаунта не заморожены.',
    '该账户的提现未被冻结。',
  ),
  WITHDRAW_ADDRESS_CONTRACT: entry(
    400,
    'Withdrawal address is a contract',
    "This is the address of a smart contract (such as the USDT token itself), not a wallet: money sent there is lost. Enter your wallet's address.",
    'Это адрес смарт-контракта (например, самого токена USDT), а не кошелька: отправленные туда деньги пропадут. Укажите адрес своего кошелька.',
    '这是智能合约（例如 USDT 代币本身）的地址，而不是钱包地址：转入的资金将会丢失。请填写您的钱包地址。',
  ),
  WITHDRAW_ADDRESS_BLACK_HOLE: entry(
    400,
    'Withdrawal address is the black hole',
    "This is TRON's black-hole address: nobody owns it and money sent there is lost forever. Enter your wallet's address.",
    'Это «чёрная дыра» сети TRON: у адреса нет владельца, и отправленные туда деньги пропадут навсегда. Укажите адрес своего кошелька.',
    '这是 TRON 的黑洞地址：无人拥有，转入的资金将永久丢失。请填写您的钱包地址。',
  ),
  WITHDRAW_ADDRESS_PLATFORM: entry(
    400,
    'Withdrawal address belongs to the platform',
    'This address belongs to the platform itself, not to you. Enter the address of your own wallet.',
    'Этот адрес принадлежит самой платформе, а не вам. Укажите адрес своего кошелька.',
    '该地址属于平台本身，而不是您。请填写您自己的钱包地址。',
  ),
  WITHDRAW_ADDRESS_PLATFORM_DEPOSIT: entry(
    400,
    'Withdrawal address is a deposit address of the platform',
    'This is a deposit address of the platform: to send money to another user, use an internal transfer.',
    'Это адрес депозита платформы: чтобы отправить деньги другому пользователю, используйте внутренний перевод.',
    '这是平台的充值地址：如需向其他用户转账，请使用内部转账。',
  ),
  ADDRESS_CHECK_UNAVAILABLE: entry(
    503,
    'Cannot check the address now',
    'The address cannot be checked right now. Nothing was saved or sent: please try again in a minute.',
    'Сейчас не удаётся проверить адрес. Ничего не сохранено и не отправлено: попробуйте ещё раз через минуту.',
    '暂时无法检查该地址。未保存也未发送任何内容：请一分钟后重试。',
  ),
  WALLET_NOT_CONFIGURED: entry(
    503,
    'Deposits are not configured',
    'Deposit addresses are not available on this server yet. Please contact support.',
    'Адреса депозита на этом сервере пока недоступны. Обратитесь в поддержку.',
    '本服务器暂不提供充值地址，请联系客服。',
  ),
  WITHDRAWAL_NOT_PENDING: entry(
    409,
    'Withdrawal is not pending',
    'This withdrawal was already decided: only a pending withdrawal can be approved or rejected.',
    'По этому выводу уже принято решение: одобрить или отклонить можно только ожидающий вывод.',
    '该提现已处理：只有待处理的提现才能批准或拒绝。',
  ),
  // --- licence purchases ---
  LICENSE_LEVEL_UNKNOWN: entry(
    400,
    'Unknown license level',
    'This license level does not exist.',
    'Такого уровня лицензии не существует.',
    '该许可证等级不存在。',
  ),
  LICENSE_NOT_UPGRADE: entry(
    422,
    'You can only upgrade to a higher license',
    'You can only upgrade to a higher license level.',
    'Можно перейти только на более высокий уровень лицензии.',
    '只能升级到更高等级的许可证。',
  ),
  LICENSE_RENEWAL_UNAVAILABLE: entry(
    422,
    'License renewal is not available',
    'A paid license can be renewed in the last 30 days before it expires.',
    'Платную лицензию можно продлить в последние 30 дней до окончания срока.',
    '付费许可证可在到期前 30 天内续期。',
  ),
  LICENSE_RENEWAL_EXPIRED: entry(
    422,
    'License has expired and cannot be renewed',
    'Your license has expired, so it can no longer be renewed at the discount. Buy a license level again at the full price.',
    'Срок лицензии истёк, продлить её со скидкой уже нельзя. Купите уровень лицензии заново по полной цене.',
    '您的许可证已过期，无法再以折扣价续期。请以全价重新购买许可证等级。',
  ),
  // --- exchange orders (worker and trading calls; never shown as an internal error) ---
  EXCHANGE_INSUFFICIENT_BALANCE: entry(
    422,
    'Not enough balance on the exchange account',
    'Your exchange account does not have enough balance for this order.',
    'На вашем биржевом аккаунте недостаточно средств для этого ордера.',
    '您的交易所账户余额不足以下此订单。',
  ),
  ORDER_REJECTED: entry(
    422,
    'The exchange rejected the order',
    'The exchange rejected the order. Check the coin settings and try again.',
    'Биржа отклонила ордер. Проверьте настройки монеты и повторите попытку.',
    '交易所拒绝了该订单。请检查币种设置后重试。',
  ),
  EXCHANGE_UNSUPPORTED: entry(
    422,
    'Not supported by this exchange',
    'Your exchange does not support this operation.',
    'Ваша биржа не поддерживает эту операцию.',
    '您的交易所不支持此操作。',
  ),
  // --- grid state (a fill or a settings change met a coin bot that changed meanwhile) ---
  GRID_STATE_CONFLICT: entry(
    409,
    'Coin bot state changed',
    'The coin bot changed while this was being done. Reload and try again.',
    'Состояние бота монеты изменилось во время операции. Обновите страницу и повторите попытку.',
    '操作期间币种机器人状态已变化。请刷新后重试。',
  ),
  // --- deal controls (docs/grid.md#deal-controls) ---
  DEAL_NOT_FOUND: entry(
    404,
    'Deal not found',
    'This deal is not one of this coin’s deals.',
    'Такой сделки нет среди сделок этой монеты.',
    '该交易不属于此币种。',
  ),
  DEAL_ALREADY_SOLD: entry(
    409,
    'Deal already sold',
    'This deal is already closed: its take profit sold it. Nothing was sold now.',
    'Эта сделка уже закрыта: её продал тейк-профит. Сейчас ничего не продано.',
    '该交易已平仓：已由止盈单卖出。本次未卖出任何内容。',
  ),
  NO_OPEN_DEALS: entry(
    409,
    'No open deals',
    'This coin has no open deals to close.',
    'У этой монеты нет открытых сделок, которые можно закрыть.',
    '该币种没有可平仓的未平仓交易。',
  ),
  DEAL_COMMAND_PENDING: entry(
    409,
    'A deal command is already pending',
    'The bot is still carrying out your previous command for this coin. Wait until it is done, then try again.',
    'Бот ещё выполняет вашу предыдущую команду по этой монете. Дождитесь её завершения и повторите попытку.',
    '机器人仍在执行您对该币种的上一条指令。请等待其完成后重试。',
  ),
  MARKET_CLOSED: entry(
    422,
    'The market is not trading now',
    'The exchange is not trading this coin’s market right now (a halt or a break). Nothing was sold or cancelled: try again when it trades.',
    'Биржа сейчас не торгует рынком этой монеты (остановка или перерыв). Ничего не продано и не отменено: повторите, когда торги возобновятся.',
    '交易所目前暂停了该币种市场的交易（停牌或休市）。未卖出或撤销任何订单：请在恢复交易后重试。',
  ),
  DEAL_BELOW_EXCHANGE_MIN: entry(
    422,
    'The deal is below the exchange minimum',
    'At the current price this deal is worth less than the minimum order of this market on your exchange, so it cannot be sold at market. Its take profit stays.',
    'По текущей цене эта сделка меньше минимального ордера этого рынка на вашей бирже, поэтому её нельзя продать по рынку. Её тейк-профит остаётся.',
    '按当前价格，该交易金额低于您交易所该市场的最小下单额，无法市价卖出。其止盈单保留。',
  ),
  NO_PENDING_BUY: entry(
    409,
    'No pending buy',
    'This coin has no buy order waiting on the exchange now.',
    'У этой монеты сейчас нет ожидающего ордера на покупку на бирже.',
    '该币种目前在交易所没有等待成交的买单。',
  ),
  DEAL_COMMAND_EXPIRED: entry(
    409,
    'The command was not carried out in time',
    'The bot could not carry out this command within 2 minutes (the exchange or our servers were busy), so it was dropped: nothing was done. Try again.',
    'Бот не смог выполнить эту команду за 2 минуты (биржа или наши серверы были заняты), поэтому она отменена: ничего не сделано. Повторите попытку.',
    '机器人未能在 2 分钟内执行该指令（交易所或我们的服务器繁忙），指令已取消，未执行任何操作。请重试。',
  ),
  // --- ledger (wallet moves) ---
  WALLET_NOT_FOUND: entry(
    404,
    'Wallet not found',
    'This wallet does not exist yet.',
    'Этот кошелёк ещё не создан.',
    '该钱包尚未创建。',
  ),
  REQUEST_CONFLICT: entry(
    409,
    'This request was already made with other data',
    'This request was already made with different data. Start a new one.',
    'Этот запрос уже был выполнен с другими данными. Создайте новый.',
    '该请求已使用不同的数据提交过。请重新发起。',
  ),
  TRANSFER_REFUSED: entry(
    422,
    'Transfer refused',
    'This money transfer was refused and nothing was moved.',
    'Перевод отклонён, средства не списаны.',
    '该转账被拒绝，资金未发生变动。',
  ),
  // --- generic ---
  INTERNAL: entry(
    500,
    'Внутренняя ошибка сервера',
    'Internal server error.',
    'Внутренняя ошибка сервера.',
    '服务器内部错误。',
  ),
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof errorCatalogue;

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(errorCatalogue, value);

export type ErrorIssue = { path: string; message: string };

/**
 * What every package's typed error carries (AppError, LedgerError, ExchangeError, GridError): the
 * catalogue code it means for a user, and for input errors the fields at fault. The API maps it
 * once to the status, the spec's message and the localized detail (docs/errors.md).
 */
export type CataloguedError = Error & {
  readonly catalogueCode: ErrorCode;
  readonly issues?: ErrorIssue[];
  /** The instant a `{until}` detail names (a lock's end). */
  readonly until?: Date;
};

/** A catalogue detail with its `{until}` filled in (`at` renders the instant in the reader's way). */
export const fillDetail = (detail: string, until: Date | undefined, at: (instant: Date) => string): string =>
  until ? detail.replaceAll('{until}', at(until)) : detail;

export const isCataloguedError = (error: unknown): error is CataloguedError =>
  error instanceof Error && isErrorCode((error as { catalogueCode?: unknown }).catalogueCode);

/** Status of a catalogue code. */
export const statusOf = (code: ErrorCode): number => errorCatalogue[code].status;

/**
 * Text for an endpoint's `errors` entry naming catalogue codes, e.g.
 * `LICENSE_EXPIRED 'Limit expiration of free license, cannot start trading.'`. Tests check that
 * every code named under a status has that status in the catalogue.
 */
export const documented = (...codes: readonly ErrorCode[]): string =>
  codes.map((code) => `${code} '${errorCatalogue[code].message}'`).join(' | ');
