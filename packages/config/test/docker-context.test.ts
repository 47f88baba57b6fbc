import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const repo = new URL('../../../', import.meta.url);

describe('the Docker build context', () => {
  it('leaves secrets, local databases, history and installed trees out of images', () => {
    const rules = readFileSync(new URL('.dockerignore', repo), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
    for (const path of ['.env', '.data/', '.git/', '**/node_modules/']) expect(rules).toContain(path);
    // The example holds only placeholders and documents the variables: it may go in.
    expect(rules).toContain('!.env.example');
  });
});
