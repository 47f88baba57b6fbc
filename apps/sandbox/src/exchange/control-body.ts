import type { FastifyInstance, FastifyReply } from 'fastify';

export type ControlBody = Record<string, unknown>;

/**
 * The JSON object of a control request on a dialect's port (the Bybit and OKX apps keep bodies as
 * raw text for their signatures); undefined when it is not one.
 */
export const controlBody = (raw: unknown): ControlBody | undefined => {
  if (raw === undefined || raw === '') return {};
  try {
    const parsed = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as ControlBody)
      : undefined;
  } catch {
    return undefined;
  }
};

/** An integer within [min, max], else undefined. */
export const intIn = (value: unknown, min: number, max: number): number | undefined =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max
    ? (value as number)
    : undefined;

export const badControl = (reply: FastifyReply, msg: string) => reply.status(400).send({ error: msg });

/**
 * `POST <prefix>/limits`: lowers (or raises) a dialect's rate limits by pool id, answering the limits
 * now in force; a bad body or an unknown pool is a 400 with its reason.
 */
export const dialectLimitsRoute = (
  app: FastifyInstance,
  prefix: string,
  limits: { setLimits(limits: Record<string, number>): Record<string, number> },
) => {
  app.post(`${prefix}/limits`, async (request, reply) => {
    const body = controlBody(request.body);
    if (!body) return badControl(reply, 'a JSON object of pool id → limit');
    try {
      return { limits: limits.setLimits(body as Record<string, number>) };
    } catch (error) {
      return badControl(reply, (error as Error).message);
    }
  });
};
