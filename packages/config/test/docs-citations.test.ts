import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url).pathname;

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

const anchorsOf = (file: string) =>
  new Set(
    readFileSync(`${root}${file}`, 'utf8')
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => anchorOf(line.replace(/^#+ /, ''))),
  );

describe('the rules live in the repository', () => {
  it('every docs/ citation in the code names a file and a heading that exist', () => {
    const files = execFileSync('git', ['ls-files', 'apps', 'packages', 'scripts', 'docs', '*.md'], {
      cwd: root,
    })
      .toString()
      .split('\n')
      .filter((file) => /\.(ts|tsx|mjs|md)$/.test(file) && existsSync(`${root}${file}`));
    const broken: string[] = [];
    for (const file of files) {
      const text = readFileSync(`${root}${file}`, 'utf8');
      for (const [, target, anchor] of text.matchAll(/docs\/([a-z-]+\.md)(?:#([a-z0-9-]+))?/g)) {
        const path = `docs/${target}`;
        if (!existsSync(`${root}${path}`)) broken.push(`${file}: ${path}`);
        else if (anchor && !anchorsOf(path).has(anchor)) broken.push(`${file}: ${path}#${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('no comment cites the design or the client specification outside the repository', () => {
    let hits = '';
    try {
      hits = execFileSync(
        'git',
        ['grep', '-nE', '(DESIGN(\\.md)? ?§|[Ss]pec ?§)', '--', 'apps', 'packages', 'scripts'],
        {
          cwd: root,
        },
      ).toString();
    } catch {
      // git grep exits 1 when nothing matches: what this test wants.
    }
    expect(hits.trim()).toBe('');
  });
});
