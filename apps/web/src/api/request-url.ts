import { ApiError } from './api-error';

/** A contract's path with its `:name` parameters filled in, each one URL-encoded. */
export const fillPath = (path: string, params: Record<string, unknown> | undefined): string =>
  path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null)
      throw new ApiError({ status: 400, code: 'VALIDATION', message: `missing path parameter ${name}` });
    return encodeURIComponent(String(value));
  });

/** `?a=1&b=2` in the input's key order, without absent values; '' when nothing is left. */
export const queryString = (query: Record<string, unknown> | undefined): string => {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
};

/** The path and query a call is sent to (without the API's base URL). */
export const requestPath = (
  path: string,
  input: { params?: Record<string, unknown>; query?: Record<string, unknown> },
): string => `${fillPath(path, input.params)}${queryString(input.query)}`;
