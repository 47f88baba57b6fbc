import type { Plugin } from 'vite';

const CONTRACTS = /packages[\\/]contracts[\\/]src[\\/].*\.ts$/;
/** `.describe(<one string literal>)`, the literal on one or more lines, a trailing comma allowed. */
const DESCRIBE = /\.describe\(\s*(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\$]|\\.)*`)\s*,?\s*\)/g;

/**
 * Removes the OpenAPI descriptions from a contract module's zod schemas, keeping every other
 * character where it was (blanked, newlines kept): the source maps stay right.
 */
export const stripDescriptions = (code: string): string =>
  code.replace(DESCRIBE, (call) => call.replace(/[^\n]/g, ' '));

/**
 * The contracts' `.describe(…)` texts are for the API's OpenAPI document: in zod 4 each one also
 * clones its schema, so the browser built every described schema twice before the first screen
 * (docs/performance.md#web). The web build leaves them out; validation is the same.
 */
export const stripSchemaDescriptions = (): Plugin => ({
  name: 'gridbot:strip-schema-descriptions',
  apply: 'build',
  transform(code, id) {
    if (!CONTRACTS.test(id)) return null;
    const stripped = stripDescriptions(code);
    return stripped === code ? null : { code: stripped, map: null };
  },
});
