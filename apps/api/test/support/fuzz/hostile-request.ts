import type { EndpointDefinition } from '@gridbot/contracts';
import fc from 'fast-check';
import { AUTH_VARIANTS, type AuthVariant, type FuzzBody, type FuzzRequest } from './fuzz-request';
import { hostileKey, hostileValue } from './hostile-values';
import { arbitraryOf, type FieldArbitraries } from './zod-arbitrary';

type Part = 'params' | 'query' | 'headers' | 'body';

/** One hostile change to a request; a request gets one to three of them. */
type Mutation =
  | { kind: 'set'; part: Part; pick: number; value: unknown }
  | { kind: 'extra'; part: Part; key: string; value: unknown }
  | { kind: 'drop'; part: Part; pick: number }
  | { kind: 'repeat-query-key'; pick: number; value: unknown }
  | { kind: 'raw-number'; pick: number; literal: string }
  | { kind: 'body-shape'; value: unknown }
  | { kind: 'raw-body'; contentType: string | undefined; text: string }
  | { kind: 'content-type'; contentType: string | undefined }
  | { kind: 'auth'; variant: AuthVariant };

/** JSON number literals JavaScript cannot hold exactly (1e309 parses as Infinity). */
const RAW_NUMBERS = [
  '1e309',
  '-1e309',
  '-0',
  '1e-400',
  '1.0000000000000000001',
  '9007199254740993',
  '-5',
  '0.1e1',
];

const MALFORMED_BODIES = [
  '',
  '{',
  '{"a":',
  "{'coin':'BTC'}",
  '[1,]',
  'null',
  'true',
  '"just a string"',
  '{"coin":"BTC"}{"coin":"ETH"}',
  '\uFEFF{}',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":1,"a":2}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  '\u0000',
];

const CONTENT_TYPES = [
  undefined,
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16le',
  'application/xml',
  'APPLICATION/JSON',
  'application/jsonx',
  'application/json, text/plain',
  '',
];

const part = fc.constantFrom<Part>('params', 'query', 'headers', 'body');

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constant('set' as const), part, pick: fc.nat(), value: hostileValue }),
    weight: 6,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('extra' as const), part, key: hostileKey, value: hostileValue }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('drop' as const), part, pick: fc.nat() }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('repeat-query-key' as const),
      pick: fc.nat(),
      value: hostileValue,
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('raw-number' as const),
      pick: fc.nat(),
      literal: fc.constantFrom(...RAW_NUMBERS),
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('body-shape' as const), value: hostileValue }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('raw-body' as const),
      contentType: fc.constantFrom(undefined, 'application/json'),
      text: fc.constantFrom(...MALFORMED_BODIES),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('content-type' as const),
      contentType: fc.constantFrom(...CONTENT_TYPES),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('auth' as const), variant: fc.constantFrom(...AUTH_VARIANTS) }),
    weight: 2,
  },
);

/** Sets an own, enumerable key, even `__proto__` (a plain assignment would change the prototype). */
const withKey = (target: Record<string, unknown>, key: string, value: unknown) => {
  const copy = { ...target };
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
};

const keyAt = (target: Record<string, unknown>, pick: number) => {
  const keys = Object.keys(target);
  return keys.length === 0 ? undefined : keys[pick % keys.length];
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const bodyObject = (body: FuzzBody) => (body.kind === 'json' && isRecord(body.value) ? body.value : {});

const getPart = (request: FuzzRequest, name: Part) =>
  name === 'body' ? bodyObject(request.body) : request[name];

const setPart = (request: FuzzRequest, name: Part, value: Record<string, unknown>): FuzzRequest =>
  name === 'body' ? { ...request, body: { kind: 'json', value } } : { ...request, [name]: value };

const RAW_MARK = '\u0000raw\u0000';

const apply = (request: FuzzRequest, change: Mutation): FuzzRequest => {
  switch (change.kind) {
    case 'set': {
      const target = getPart(request, change.part);
      return setPart(
        request,
        change.part,
        withKey(target, keyAt(target, change.pick) ?? 'field', change.value),
      );
    }
    case 'extra':
      return setPart(request, change.part, withKey(getPart(request, change.part), change.key, change.value));
    case 'drop': {
      const target = { ...getPart(request, change.part) };
      const key = keyAt(target, change.pick);
      if (key !== undefined) delete target[key];
      return setPart(request, change.part, target);
    }
    case 'repeat-query-key': {
      const key = keyAt(request.query, change.pick) ?? 'page';
      return { ...request, query: withKey(request.query, key, [request.query[key] ?? '1', change.value]) };
    }
    case 'raw-number': {
      const target = bodyObject(request.body);
      const text = JSON.stringify(withKey(target, keyAt(target, change.pick) ?? 'amount', RAW_MARK));
      return {
        ...request,
        body: {
          kind: 'raw',
          contentType: 'application/json',
          text: text.replace(`"${RAW_MARK}"`, change.literal),
        },
      };
    }
    case 'body-shape':
      return { ...request, body: { kind: 'json', value: change.value } };
    case 'raw-body':
      return { ...request, body: { kind: 'raw', contentType: change.contentType, text: change.text } };
    case 'content-type': {
      const text = request.body.kind === 'raw' ? request.body.text : JSON.stringify(bodyObject(request.body));
      return { ...request, body: { kind: 'raw', contentType: change.contentType, text } };
    }
    case 'auth':
      return { ...request, auth: change.variant };
  }
};

const partArbitrary = (schema: EndpointDefinition['query'], fields: FieldArbitraries) =>
  schema ? (arbitraryOf(schema, fields) as fc.Arbitrary<Record<string, unknown>>) : fc.constant({});

const bodyArbitrary = (endpoint: EndpointDefinition, fields: FieldArbitraries): fc.Arbitrary<FuzzBody> => {
  const absent = fc.constant<FuzzBody>({ kind: 'absent' });
  if (!endpoint.body)
    return endpoint.method === 'GET'
      ? absent
      : fc.oneof(absent, fc.constant<FuzzBody>({ kind: 'json', value: {} }));
  const json = arbitraryOf(endpoint.body, fields).map((value): FuzzBody => ({ kind: 'json', value }));
  return endpoint.body._zod.optin === 'optional' ? fc.oneof(json, absent) : json;
};

/**
 * Mostly the attacker's own session; now and then a correctly signed one of a user the database
 * does not have, which only goes deep with an otherwise valid request.
 */
const derivedAuth = fc.oneof(
  { arbitrary: fc.constant<AuthVariant>('attacker'), weight: 9 },
  { arbitrary: fc.constant<AuthVariant>('unknown-user'), weight: 1 },
);

/** Requests a well-meaning client could send, derived from the contract's schemas. */
export const derivedRequest = (
  endpoint: EndpointDefinition,
  fields: FieldArbitraries,
): fc.Arbitrary<FuzzRequest> =>
  fc.record({
    auth: endpoint.auth ? derivedAuth : fc.constant<AuthVariant>('missing'),
    params: partArbitrary(endpoint.params, fields),
    query: partArbitrary(endpoint.query, fields),
    headers: partArbitrary(endpoint.headers, fields),
    body: bodyArbitrary(endpoint, fields),
  });

/** A derived request with one to three hostile mutations (values, keys, shapes, bodies, auth). */
export const hostileRequest = (
  endpoint: EndpointDefinition,
  fields: FieldArbitraries,
): fc.Arbitrary<FuzzRequest> =>
  fc
    .tuple(derivedRequest(endpoint, fields), fc.array(mutation, { minLength: 1, maxLength: 3 }))
    .map(([request, changes]) => changes.reduce(apply, request));

/** Half derived, half hostile: the derived half reaches the handlers, the other half attacks them. */
export const fuzzRequest = (endpoint: EndpointDefinition, fields: FieldArbitraries) =>
  fc.oneof(derivedRequest(endpoint, fields), hostileRequest(endpoint, fields));
