import type { FastifyReply } from 'fastify';

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
