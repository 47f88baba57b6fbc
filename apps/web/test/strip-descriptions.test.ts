import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stripDescriptions } from '../build/strip-descriptions';

const CONTRACTS = new URL('../../../packages/contracts/src/', import.meta.url).pathname;
const contractFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? contractFiles(join(dir, entry.name)) : [join(dir, entry.name)],
  );

describe('the web build leaves the contracts’ OpenAPI descriptions out', () => {
  it('removes a literal description, one line or several, and keeps every position', () => {
    const code =
      "a: z.string().describe('the id'),\nb: ZUsdt.nullable().describe(\n  \"it's a figure\",\n),\n";
    const stripped = stripDescriptions(code);
    expect(stripped.replace(/ +/g, ' ')).toBe('a: z.string() ,\nb: ZUsdt.nullable() \n \n ,\n');
    expect(stripped).toHaveLength(code.length);
    expect(stripped.split('\n').map((line) => line.length)).toEqual(
      code.split('\n').map((line) => line.length),
    );
  });

  it('leaves a description that is not one plain literal', () => {
    const code = ['z.array(Z).describe(`the first $', '{N} fills`)'].join('');
    expect(stripDescriptions(code)).toBe(code);
  });

  it('removes every literal description of the contracts and moves nothing', () => {
    for (const file of contractFiles(CONTRACTS)) {
      const code = readFileSync(file, 'utf8');
      const stripped = stripDescriptions(code);
      expect(
        stripped.split('\n').map((line) => line.length),
        file,
      ).toEqual(code.split('\n').map((line) => line.length));
      // Only descriptions built from a template with placeholders are left.
      const left = stripped.match(/\.describe\(\s*\S/g) ?? [];
      expect(
        left.every((call) => call.endsWith('`')),
        file,
      ).toBe(true);
    }
  });
});
