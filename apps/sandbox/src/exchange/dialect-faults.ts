import { STATUS_CODES } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountBook } from './accounts';
import { badControl, type ControlBody, controlBody, intIn } from './control-body';
import { StreamSilence } from './stream-silence';

/**
 * The faults the Bybit and OKX dialects share (bybit-faults.ts, okx-faults.ts say what each looks
 * like in its venue's words). The Binance dialect's outages are the exchange's, control.startOutage.
 */

/** The outages in which a dialect refuses every call in its own words (a venue code, its HTTP status). */
export type RefusingKind = 'error' | 'throttled';

/**
 * A while in which a dialect misbehaves: `status`, a gateway's 5xx with no venue code; one of the
 * dialect's refusing kinds; `timeout`, answers `delayMs` late; `unknown`, a new order is carried out
 * and answered with the venue's "did not say whether it was carried out".
 */
export type DialectOutage<R extends RefusingKind> =
  | { kind: 'status'; status: 500 | 502 | 503 | 504; forMs: number }
  | { kind: R | 'unknown'; forMs: number }
  | { kind: 'timeout'; forMs: number; delayMs?: number };

/** How the answer to a dialect's next placement goes wrong after the order was placed. */
export type OrderFault = { kind: 'drop' } | { kind: 'delay'; delayMs: number } | { kind: 'unknown' };

/** What a timeout outage delays an answer by when the control request names no `delayMs`. */
const DEFAULT_DELAY_MS = 15_000;

export class DialectFaults<R extends RefusingKind> {
  private outage: (DialectOutage<R> & { until: number }) | undefined;
  private readonly queue: OrderFault[] = [];
  /** The dialect's private stream connections gone silent (stream-silence.ts), until reset or lifted. */
  readonly streamSilence = new StreamSilence();

  /** `refusingKinds`: the dialect's, in the order its control API names them. */
  constructor(readonly refusingKinds: readonly R[]) {}

  startOutage(outage: DialectOutage<R>): void {
    this.outage = { ...outage, until: Date.now() + outage.forMs };
  }

  failNextOrderResponse(fault: OrderFault): void {
    this.queue.push(fault);
  }

  /** No outage, no queued fault, no silent stream. */
  reset(): void {
    this.outage = undefined;
    this.queue.length = 0;
    this.streamSilence.lift();
  }

  current(): DialectOutage<R> | undefined {
    if (this.outage && this.outage.until <= Date.now()) this.outage = undefined;
    return this.outage;
  }

  /** The fault of the order just placed: the outage's, else the next queued one. */
  takeOrderFault(): OrderFault | undefined {
    const outage: DialectOutage<RefusingKind> | undefined = this.current();
    if (outage?.kind === 'unknown') return { kind: 'unknown' };
    if (outage?.kind === 'timeout') return { kind: 'delay', delayMs: outage.delayMs ?? DEFAULT_DELAY_MS };
    return this.queue.shift();
  }
}

/** How a dialect's outages look on its wire. */
export type DialectFaultWords<R extends RefusingKind> = {
  /** An outage strikes the calls under this path only. */
  apiPrefix: string;
  /** A call that places orders: under `timeout` it is carried out first, and its answer delayed in the route. */
  isPlacement: (method: string, url: string) => boolean;
  /** The answer to every call under a refusing outage: the venue's HTTP status and envelope. */
  refusal: (kind: R) => { httpStatus: number; body: unknown };
};

/**
 * An outage strikes before the route (a new order under `timeout` or `unknown` is carried out, and
 * its answer spoiled in the route by spoilOrderAnswer).
 */
export const enforceDialectFaults = <R extends RefusingKind>(
  app: FastifyInstance,
  faults: DialectFaults<R>,
  words: DialectFaultWords<R>,
): void => {
  app.addHook('preHandler', async (request, reply) => {
    if (!request.url.startsWith(words.apiPrefix)) return;
    const outage: DialectOutage<RefusingKind> | undefined = faults.current();
    if (!outage) return;
    if (outage.kind === 'status') {
      return reply
        .status(outage.status)
        .type('text/plain')
        .send(STATUS_CODES[outage.status] ?? 'Error');
    }
    if (outage.kind === 'timeout') {
      if (!words.isPlacement(request.method, request.url)) await sleep(outage.delayMs ?? DEFAULT_DELAY_MS);
      return;
    }
    // `unknown` strikes a new order's answer only, in the route.
    const refusing = faults.refusingKinds.find((kind) => kind === outage.kind);
    if (refusing === undefined) return;
    const { httpStatus, body } = words.refusal(refusing);
    return reply.status(httpStatus).type('application/json').send(JSON.stringify(body));
  });
};

/**
 * A placement's answer spoiled by `fault`: dropped (the connection closes unanswered; the hijacked
 * reply is returned), `unknown` (throws `unknownError`, the venue's "did not say"), or late. Undefined
 * when the route answers as usual.
 */
export const spoilOrderAnswer = async (
  request: FastifyRequest,
  reply: FastifyReply,
  fault: OrderFault | undefined,
  unknownError: () => Error,
): Promise<FastifyReply | undefined> => {
  if (fault?.kind === 'drop') {
    reply.hijack();
    request.raw.socket.destroy();
    return reply;
  }
  if (fault?.kind === 'unknown') throw unknownError();
  if (fault?.kind === 'delay') await sleep(fault.delayMs);
  return undefined;
};

type Read<T> = { value: T } | { bad: string };

/** "a, b or c" */
const choices = (names: readonly string[]) =>
  `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;

const readOutage = <R extends RefusingKind>(
  body: ControlBody | undefined,
  refusingKinds: readonly R[],
): Read<DialectOutage<R>> => {
  const forMs = intIn(body?.forMs, 0, 600_000);
  if (!body || forMs === undefined) return { bad: 'forMs: an integer, 0…600000' };
  const kind = body.kind;
  if (kind === 'status') {
    const status = body.status;
    if (status !== 500 && status !== 502 && status !== 503 && status !== 504)
      return { bad: 'status: 500, 502, 503 or 504' };
    return { value: { kind, status, forMs } };
  }
  if (kind === 'timeout') {
    const delayMs = body.delayMs === undefined ? undefined : intIn(body.delayMs, 0, 120_000);
    if (body.delayMs !== undefined && delayMs === undefined) return { bad: 'delayMs: 0…120000' };
    return { value: { kind, forMs, ...(delayMs === undefined ? {} : { delayMs }) } };
  }
  const refusing = refusingKinds.find((k) => k === kind);
  if (refusing !== undefined) return { value: { kind: refusing, forMs } };
  if (kind === 'unknown') return { value: { kind, forMs } };
  return { bad: `kind: ${choices(['status', ...refusingKinds, 'timeout', 'unknown'])}` };
};

const readOrderFault = (body: ControlBody | undefined): Read<OrderFault> => {
  if (body?.kind === 'drop' || body?.kind === 'unknown') return { value: { kind: body.kind } };
  if (body?.kind !== 'delay') return { bad: 'kind: drop, delay or unknown' };
  const delayMs = intIn(body.delayMs, 0, 120_000);
  if (delayMs === undefined) return { bad: 'delayMs: 0…120000' };
  return { value: { kind: 'delay', delayMs } };
};

/**
 * A dialect's fault controls under `prefix` (its control API's, e.g. /_sandbox/okx):
 * `faults/outage` starts an outage, `faults/next-order` spoils the next placement's answer,
 * `faults/silent-stream` silences the private stream connections of the account of `apiKey` (or,
 * without it, all of them) until `faults/silent-stream/lift`; `faults/reset` ends them all.
 * `accounts`: the exchange's keys (a key it does not know is refused).
 */
export const dialectFaultRoutes = <R extends RefusingKind>(
  app: FastifyInstance,
  prefix: string,
  faults: DialectFaults<R>,
  accounts: AccountBook,
): void => {
  app.post(`${prefix}/faults/outage`, async (request, reply) => {
    const read = readOutage(controlBody(request.body), faults.refusingKinds);
    if ('bad' in read) return badControl(reply, read.bad);
    faults.startOutage(read.value);
    return { ok: true };
  });

  app.post(`${prefix}/faults/next-order`, async (request, reply) => {
    const read = readOrderFault(controlBody(request.body));
    if ('bad' in read) return badControl(reply, read.bad);
    faults.failNextOrderResponse(read.value);
    return { ok: true };
  });

  app.post(`${prefix}/faults/silent-stream`, async (request, reply) => {
    const body = controlBody(request.body);
    const apiKey = body?.apiKey;
    if (!body || (apiKey !== undefined && typeof apiKey !== 'string'))
      return badControl(reply, 'apiKey: a string, or none for every connection');
    const accountId = apiKey === undefined ? undefined : accounts.key(apiKey)?.accountId;
    if (apiKey !== undefined && accountId === undefined) return badControl(reply, 'apiKey: an unknown key');
    faults.streamSilence.silence(accountId);
    return { ok: true };
  });

  app.post(`${prefix}/faults/silent-stream/lift`, async () => {
    faults.streamSilence.lift();
    return { ok: true };
  });

  app.post(`${prefix}/faults/reset`, async () => {
    faults.reset();
    return { ok: true };
  });
};
