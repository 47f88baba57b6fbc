import type { EndpointDefinition } from '@gridbot/contracts';

/** React Query keys come from the contract: `[id, inputs]`, so every screen shares one cache entry. */
export const queryKeyOf = <E extends EndpointDefinition>(endpoint: E, input: object = {}) => {
  const defined = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  return [endpoint.id, defined] as const;
};
