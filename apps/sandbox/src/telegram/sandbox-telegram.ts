/**
 * State of the sandbox Bot API: one bot, the updates users send it (long-polled with an offset, as
 * Telegram keeps them), the messages it sends per chat, and the chats that blocked it or are
 * throttled. Memory only: a restart is a fresh bot with no pending updates.
 */

export type TelegramUser = {
  id: number;
  is_bot: boolean;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
};

export type TelegramMessage = {
  message_id: number;
  date: number;
  chat: { id: number; type: 'private'; first_name?: string; username?: string };
  from?: TelegramUser;
  text: string;
  entities?: Array<{ type: 'bot_command'; offset: number; length: number }>;
  reply_markup?: unknown;
};

export type TelegramUpdate = { update_id: number; message: TelegramMessage };

/** What a user types into the chat with the bot (`/start ref_abc`). */
export type UserMessageInput = {
  from: { id: number; first_name?: string; last_name?: string; username?: string; language_code?: string };
  text: string;
};

/** A message the bot sent, as the sandbox recorded it. */
export type SentMessage = TelegramMessage & { parse_mode?: string };

/** Telegram's error envelope with its HTTP status. */
export class BotApiError extends Error {
  constructor(
    readonly errorCode: number,
    readonly description: string,
    readonly parameters?: { retry_after?: number },
  ) {
    super(description);
  }
}

type Waiter = { offset: number; limit: number; resolve: (updates: TelegramUpdate[]) => void };

export type SandboxTelegramOptions = {
  /** The bot's token (default: a fresh random-looking one). */
  token: string;
  /** The bot's username (getMe). */
  username?: string;
  /** Told about every message the bot sends (the demo logs them). */
  onSend?: (message: SentMessage) => void;
};

export class SandboxTelegram {
  readonly token: string;
  readonly botId: number;
  readonly username: string;
  private nextUpdateId = 1;
  private nextMessageId = 1;
  private updates: TelegramUpdate[] = [];
  private waiters = new Set<Waiter>();
  private sent = new Map<number, SentMessage[]>();
  private blocked = new Set<number>();
  private failing = new Map<number, { error: BotApiError; times: number }>();
  private watchers = new Set<() => void>();
  private calls = new Map<string, number>();
  private menuButtons = new Map<number | 'default', unknown>();
  commands: unknown[] = [];
  private readonly onSend: ((message: SentMessage) => void) | undefined;

  constructor(options: SandboxTelegramOptions) {
    this.token = options.token;
    this.botId = Number(options.token.split(':')[0]);
    this.username = options.username ?? 'gridbot_sandbox_bot';
    this.onSend = options.onSend;
  }

  getMe() {
    return {
      id: this.botId,
      is_bot: true,
      first_name: 'Grid bot',
      username: this.username,
      can_join_groups: false,
      can_read_all_group_messages: false,
      supports_inline_queries: false,
    };
  }

  /** Counts every Bot API method called (tests check what the client did). */
  count(method: string) {
    this.calls.set(method, (this.calls.get(method) ?? 0) + 1);
  }

  callsOf(method: string): number {
    return this.calls.get(method) ?? 0;
  }

  /** setChatMenuButton: one chat's menu button, or the default of every chat. */
  setMenuButton(chatId: number | undefined, button: unknown) {
    this.menuButtons.set(chatId ?? 'default', button ?? { type: 'default' });
  }

  /** getChatMenuButton: the chat's own, else the default. */
  menuButton(chatId?: number): unknown {
    return (
      (chatId !== undefined ? this.menuButtons.get(chatId) : undefined) ??
      this.menuButtons.get('default') ?? { type: 'default' }
    );
  }

  /** A user writes to the bot: queued as an update for the next getUpdates. */
  userSends(input: UserMessageInput): TelegramUpdate {
    const from: TelegramUser = {
      id: input.from.id,
      is_bot: false,
      first_name: input.from.first_name ?? 'User',
      ...(input.from.last_name ? { last_name: input.from.last_name } : {}),
      ...(input.from.username ? { username: input.from.username } : {}),
      ...(input.from.language_code ? { language_code: input.from.language_code } : {}),
    };
    const command = /^\/[A-Za-z0-9_]+/.exec(input.text)?.[0];
    const update: TelegramUpdate = {
      update_id: this.nextUpdateId++,
      message: {
        message_id: this.nextMessageId++,
        date: Math.floor(Date.now() / 1000),
        chat: {
          id: from.id,
          type: 'private',
          first_name: from.first_name,
          ...(from.username ? { username: from.username } : {}),
        },
        from,
        text: input.text,
        ...(command
          ? { entities: [{ type: 'bot_command' as const, offset: 0, length: command.length }] }
          : {}),
      },
    };
    this.updates.push(update);
    for (const waiter of this.waiters) this.answer(waiter);
    // A blocked user who writes again has unblocked the bot (Telegram's behaviour).
    this.blocked.delete(from.id);
    return update;
  }

  /**
   * getUpdates: confirms every update below `offset`, then answers at once when some are pending,
   * else waits up to `timeoutS` for one. `signal` ends the wait when the client goes away.
   */
  getUpdates(
    offset: number,
    limit: number,
    timeoutS: number,
    signal: AbortSignal,
  ): Promise<TelegramUpdate[]> {
    if (offset > 0) this.updates = this.updates.filter((u) => u.update_id >= offset);
    const ready = this.pending(offset, limit);
    if (ready.length > 0 || timeoutS <= 0) return Promise.resolve(ready);
    return new Promise((resolve) => {
      const waiter: Waiter = { offset, limit, resolve };
      const aborted = () => done([]);
      const done = (updates: TelegramUpdate[]) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', aborted);
        this.waiters.delete(waiter);
        resolve(updates);
      };
      waiter.resolve = done;
      const timer = setTimeout(aborted, timeoutS * 1000);
      signal.addEventListener('abort', aborted, { once: true });
      this.waiters.add(waiter);
    });
  }

  private pending(offset: number, limit: number) {
    return this.updates.filter((u) => u.update_id >= offset).slice(0, limit);
  }

  private answer(waiter: Waiter) {
    const ready = this.pending(waiter.offset, waiter.limit);
    if (ready.length > 0) waiter.resolve(ready);
  }

  /** Wakes every long poll with nothing (server stopping). */
  releaseWaiters() {
    for (const waiter of [...this.waiters]) waiter.resolve([]);
  }

  sendMessage(
    chatId: number,
    text: string,
    extra: { reply_markup?: unknown; parse_mode?: string },
  ): SentMessage {
    if (!Number.isSafeInteger(chatId)) throw new BotApiError(400, 'Bad Request: chat not found');
    if (typeof text !== 'string' || text.trim() === '')
      throw new BotApiError(400, 'Bad Request: message text is empty');
    if (text.length > 4096) throw new BotApiError(400, 'Bad Request: message is too long');
    if (this.blocked.has(chatId)) throw new BotApiError(403, 'Forbidden: bot was blocked by the user');
    const failure = this.failing.get(chatId);
    if (failure && failure.times > 0) {
      failure.times -= 1;
      throw failure.error;
    }
    const message: SentMessage = {
      message_id: this.nextMessageId++,
      date: Math.floor(Date.now() / 1000),
      chat: { id: chatId, type: 'private' },
      from: { id: this.botId, is_bot: true, first_name: 'Grid bot', username: this.username },
      text,
      ...(extra.reply_markup ? { reply_markup: extra.reply_markup } : {}),
      ...(extra.parse_mode ? { parse_mode: extra.parse_mode } : {}),
    };
    const list = this.sent.get(chatId) ?? [];
    list.push(message);
    this.sent.set(chatId, list);
    this.onSend?.(message);
    for (const watcher of [...this.watchers]) watcher();
    return message;
  }

  /** What the bot sent to a chat, oldest first. */
  messagesTo(chatId: number): SentMessage[] {
    return [...(this.sent.get(chatId) ?? [])];
  }

  /** The user blocks (true) or unblocks (false) the bot: sendMessage answers 403 while blocked. */
  setBlocked(chatId: number, blocked: boolean) {
    if (blocked) this.blocked.add(chatId);
    else this.blocked.delete(chatId);
  }

  /** The next `times` messages to this chat are refused with 429 and `retry_after`. */
  throttle(chatId: number, retryAfter: number, times = 1) {
    const error = new BotApiError(429, `Too Many Requests: retry after ${retryAfter}`, {
      retry_after: retryAfter,
    });
    this.failing.set(chatId, { error, times });
  }

  /** The next `times` messages to this chat fail with this status (e.g. 500: Telegram's trouble). */
  failNext(chatId: number, errorCode: number, description: string, times = 1) {
    this.failing.set(chatId, { error: new BotApiError(errorCode, description), times });
  }

  /** Resolves once the bot has sent at least `count` messages to the chat (tests wait on events, not time). */
  waitForMessages(chatId: number, count: number, timeoutMs = 10_000): Promise<SentMessage[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const list = this.messagesTo(chatId);
        if (list.length < count) return false;
        this.watchers.delete(check);
        clearTimeout(timer);
        resolve(list);
        return true;
      };
      const timer = setTimeout(() => {
        this.watchers.delete(check);
        reject(new Error(`chat ${chatId}: ${this.messagesTo(chatId).length} of ${count} messages`));
      }, timeoutMs);
      if (!check()) this.watchers.add(check);
    });
  }
}
