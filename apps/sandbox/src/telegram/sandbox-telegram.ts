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
  /** Users' chats are positive ids (`private`); groups negative (`supergroup`, as a -100… id is). */
  chat: {
    id: number;
    type: 'private' | 'supergroup';
    first_name?: string;
    username?: string;
    title?: string;
  };
  from?: TelegramUser;
  text: string;
  entities?: Array<{ type: 'bot_command'; offset: number; length: number }>;
  reply_markup?: unknown;
};

/**
 * A press of an inline keyboard's callback button (Bot API "CallbackQuery"): `id` to answer it,
 * who pressed, the message the button was under, `chat_instance` and the button's `data`.
 */
export type CallbackQuery = {
  id: string;
  from: TelegramUser;
  message: TelegramMessage;
  chat_instance: string;
  data: string;
};

/** Bot API "Update": exactly one of its optional fields is present. */
export type TelegramUpdate =
  | { update_id: number; message: TelegramMessage }
  | { update_id: number; callback_query: CallbackQuery };

/** A user presses a callback button under a message the bot sent to `chatId`. */
export type CallbackPressInput = {
  from: { id: number; first_name?: string; username?: string; language_code?: string };
  chatId: number;
  messageId: number;
  data: string;
};

/** The bot's answer to a callback query (answerCallbackQuery). */
export type CallbackAnswer = { callback_query_id: string; text?: string; show_alert?: boolean; at: number };

/** What a user types into the chat with the bot (`/start ref_abc`). */
export type UserMessageInput = {
  from: { id: number; first_name?: string; last_name?: string; username?: string; language_code?: string };
  text: string;
};

/**
 * A message the bot sent, as the sandbox recorded it: `sent_at` (ms) when it was sent, and every
 * edit after it (editMessageText / editMessageReplyMarkup), newest last.
 */
export type SentMessage = TelegramMessage & {
  parse_mode?: string;
  sent_at: number;
  edits?: Array<{ at: number; text?: string; reply_markup?: unknown }>;
};

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
  private nextCallbackId = 1;
  private callbacks = new Map<string, { chatId: number; messageId: number; answer?: CallbackAnswer }>();
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

  /**
   * A user presses a callback button under one of the bot's messages: queued as a `callback_query`
   * update, as Telegram delivers it through getUpdates. Only a message the bot sent to that chat
   * with that button's data can be pressed.
   */
  userPresses(input: CallbackPressInput): TelegramUpdate {
    const message = this.messagesTo(input.chatId).find((m) => m.message_id === input.messageId);
    if (!message) throw new BotApiError(400, 'Bad Request: message not found');
    const buttons = (message.reply_markup as { inline_keyboard?: Array<Array<{ callback_data?: string }>> })
      ?.inline_keyboard;
    if (!buttons?.flat().some((b) => b.callback_data === input.data)) {
      throw new BotApiError(400, 'Bad Request: the message has no button with this callback data');
    }
    const from: TelegramUser = {
      id: input.from.id,
      is_bot: false,
      first_name: input.from.first_name ?? 'User',
      ...(input.from.username ? { username: input.from.username } : {}),
      ...(input.from.language_code ? { language_code: input.from.language_code } : {}),
    };
    const id = `${this.botId}${String(this.nextCallbackId++).padStart(6, '0')}`;
    this.callbacks.set(id, { chatId: input.chatId, messageId: input.messageId });
    const { sent_at: _sentAt, edits: _edits, parse_mode: _parseMode, ...shown } = message;
    const update: TelegramUpdate = {
      update_id: this.nextUpdateId++,
      callback_query: { id, from, message: shown, chat_instance: String(input.chatId), data: input.data },
    };
    this.updates.push(update);
    for (const waiter of this.waiters) this.answer(waiter);
    return update;
  }

  /** answerCallbackQuery: once per query, as Telegram allows. */
  answerCallbackQuery(id: string, extra: { text?: string; show_alert?: boolean }): true {
    const query = this.callbacks.get(id);
    if (!query)
      throw new BotApiError(
        400,
        'Bad Request: query is too old and response timeout expired or query ID is invalid',
      );
    if (query.answer) throw new BotApiError(400, 'Bad Request: query is already answered');
    query.answer = { callback_query_id: id, ...extra, at: Date.now() };
    for (const watcher of [...this.watchers]) watcher();
    return true;
  }

  /** The bot's answer to a callback query, once it answered. */
  callbackAnswer(id: string): CallbackAnswer | undefined {
    return this.callbacks.get(id)?.answer;
  }

  /**
   * editMessageText / editMessageReplyMarkup of a message the bot sent: the new text and/or
   * keyboard, kept with the edit's time. Telegram refuses an edit that changes nothing.
   */
  editMessage(
    chatId: number,
    messageId: number,
    change: { text?: string; reply_markup?: unknown },
  ): SentMessage {
    const message = this.messagesTo(chatId).find((m) => m.message_id === messageId);
    if (!message) throw new BotApiError(400, 'Bad Request: message to edit not found');
    const keyboard = change.reply_markup as { inline_keyboard?: unknown[] } | undefined;
    // An empty inline keyboard is no keyboard.
    const markupOf = (markup: unknown) =>
      (markup as { inline_keyboard?: unknown[] } | undefined)?.inline_keyboard?.length ? markup : null;
    const same =
      (change.text === undefined || change.text === message.text) &&
      JSON.stringify(markupOf(change.reply_markup)) === JSON.stringify(markupOf(message.reply_markup));
    if (same) {
      throw new BotApiError(
        400,
        'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
      );
    }
    if (change.text !== undefined) message.text = change.text;
    if (keyboard && (keyboard.inline_keyboard?.length ?? 0) > 0) message.reply_markup = change.reply_markup;
    else delete message.reply_markup;
    message.edits = [...(message.edits ?? []), { at: Date.now(), ...change }];
    for (const watcher of [...this.watchers]) watcher();
    return message;
  }

  /** Resolves once `check` holds after some change (a message, an edit, an answer), else rejects. */
  waitFor<T>(check: () => T | undefined, timeoutMs = 10_000, what = 'condition'): Promise<T> {
    return new Promise((resolve, reject) => {
      const test = () => {
        const value = check();
        if (value === undefined) return false;
        this.watchers.delete(test);
        clearTimeout(timer);
        resolve(value);
        return true;
      };
      const timer = setTimeout(() => {
        this.watchers.delete(test);
        reject(new Error(`sandbox telegram: timed out waiting for ${what}`));
      }, timeoutMs);
      if (!test()) this.watchers.add(test);
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
      sent_at: Date.now(),
      chat: { id: chatId, type: chatId < 0 ? 'supergroup' : 'private' },
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
