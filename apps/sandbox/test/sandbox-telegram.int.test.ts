import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxTelegramHandle, startSandboxTelegram } from '../src/telegram/index';

let h: SandboxTelegramHandle;
beforeAll(async () => {
  h = await startSandboxTelegram();
});
afterAll(async () => {
  await h.close();
});

const call = async (method: string, body?: unknown, token = h.token) => {
  const response = await fetch(`${h.url}/bot${token}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('the sandbox Bot API', () => {
  it("answers in Telegram's envelopes: ok/result, and ok:false with error_code for a wrong token or method", async () => {
    expect(await call('getMe')).toMatchObject({ status: 200, body: { ok: true, result: { is_bot: true } } });
    expect(await call('getMe', {}, '1:wrong')).toEqual({
      status: 401,
      body: { ok: false, error_code: 401, description: 'Unauthorized' },
    });
    expect((await call('sendSticker')).body).toMatchObject({ ok: false, error_code: 404 });
  });

  it('long-polls updates: a waiting getUpdates answers when a user writes, and offset confirms them', async () => {
    const waiting = call('getUpdates', { offset: 0, timeout: 10 });
    h.telegram.userSends({ from: { id: 501, username: 'alice' }, text: '/start ref_abcd' });
    const first = (await waiting).body.result as Array<{ update_id: number; message: { text: string } }>;
    expect(first.map((u) => u.message.text)).toEqual(['/start ref_abcd']);
    const next = first[0]!.update_id + 1;
    expect((await call('getUpdates', { offset: next, timeout: 0 })).body.result).toEqual([]);
  });

  it('records sent messages per chat; a blocked chat gets 403 and a throttled one 429 with retry_after', async () => {
    const keyboard = { inline_keyboard: [[{ text: 'Open', web_app: { url: 'https://app.example' } }]] };
    expect((await call('sendMessage', { chat_id: 502, text: 'hi', reply_markup: keyboard })).status).toBe(
      200,
    );
    expect(h.telegram.messagesTo(502)).toMatchObject([{ text: 'hi', reply_markup: keyboard }]);

    h.telegram.setBlocked(503, true);
    expect(await call('sendMessage', { chat_id: 503, text: 'hi' })).toEqual({
      status: 403,
      body: { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' },
    });
    h.telegram.throttle(504, 3);
    expect(await call('sendMessage', { chat_id: 504, text: 'hi' })).toMatchObject({
      status: 429,
      body: { ok: false, error_code: 429, parameters: { retry_after: 3 } },
    });
    expect((await call('sendMessage', { chat_id: 504, text: 'hi' })).status).toBe(200);
    expect(h.telegram.messagesTo(503)).toEqual([]);
  });

  it('has a control API on loopback: inject an update, read the messages of a chat, block a chat', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${h.url}/_sandbox/telegram${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post('/updates', { from: { id: 505 }, text: '/start' })).status).toBe(200);
    expect((await post('/chats/505/blocked', { blocked: true })).status).toBe(200);
    expect((await call('sendMessage', { chat_id: 505, text: 'x' })).status).toBe(403);
    await post('/chats/505/blocked', { blocked: false });
    await call('sendMessage', { chat_id: 505, text: 'back' });
    const messages = await (await fetch(`${h.url}/_sandbox/telegram/chats/505/messages`)).json();
    expect(messages).toMatchObject([{ text: 'back' }]);
  });

  it('delivers a button press as a callback_query, answers it once, and edits the message', async () => {
    const keyboard = { inline_keyboard: [[{ text: 'Freeze', callback_data: 'freeze:1' }]] };
    const sent = (await call('sendMessage', { chat_id: 777, text: 'notice', reply_markup: keyboard })).body
      .result as { message_id: number };
    const unknown = await fetch(`${h.url}/_sandbox/telegram/callbacks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from: { id: 777 }, chatId: 777, messageId: sent.message_id, data: 'other' }),
    });
    expect(unknown.status).toBe(400);
    const pressed = await fetch(`${h.url}/_sandbox/telegram/callbacks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from: { id: 777 }, chatId: 777, messageId: sent.message_id, data: 'freeze:1' }),
    });
    const update = (await pressed.json()) as {
      update_id: number;
      callback_query: { id: string; data: string };
    };
    expect(update.callback_query.data).toBe('freeze:1');
    const polled = (await call('getUpdates', { offset: update.update_id, timeout: 0 })).body.result as Array<{
      callback_query?: { id: string; message: { message_id: number } };
    }>;
    expect(polled[0]?.callback_query?.message.message_id).toBe(sent.message_id);
    const id = update.callback_query.id;
    expect((await call('answerCallbackQuery', { callback_query_id: id, text: 'Frozen' })).body.result).toBe(
      true,
    );
    expect((await call('answerCallbackQuery', { callback_query_id: id })).status).toBe(400);
    expect(h.telegram.callbackAnswer(id)).toMatchObject({ text: 'Frozen' });
    const edited = await call('editMessageReplyMarkup', {
      chat_id: 777,
      message_id: sent.message_id,
      reply_markup: { inline_keyboard: [] },
    });
    expect(edited.body.result).not.toHaveProperty('reply_markup');
    // The same content again is refused, as Telegram refuses it.
    expect(
      (await call('editMessageReplyMarkup', { chat_id: 777, message_id: sent.message_id })).body,
    ).toMatchObject({ ok: false, error_code: 400 });
    await call('editMessageText', { chat_id: 777, message_id: sent.message_id, text: 'notice (frozen)' });
    const [message] = h.telegram.messagesTo(777);
    expect(message).toMatchObject({ text: 'notice (frozen)' });
    expect(message?.edits).toHaveLength(2);
  });
});
