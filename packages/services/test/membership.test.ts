import { describe, expect, it } from 'vitest';
import { createMemoryMembership, ownerOf } from '../src/context/membership';

const keys = Array.from({ length: 2_000 }, (_, i) => String(i + 1));

describe('sharing accounts among live workers (rendezvous hashing)', () => {
  it('gives every key exactly one owner among the members, the same on every member', () => {
    const members = ['worker-a-1-aa', 'worker-b-2-bb', 'worker-c-3-cc'];
    for (const key of keys.slice(0, 200)) {
      const owner = ownerOf(key, members);
      expect(members).toContain(owner);
      expect(ownerOf(key, [...members].reverse())).toBe(owner);
    }
    expect(ownerOf('1', [])).toBeUndefined();
  });

  it('spreads the keys evenly over two workers', () => {
    const members = ['worker-host-101-a1b2c3', 'worker-host-102-d4e5f6'];
    const first = keys.filter((key) => ownerOf(key, members) === members[0]).length;
    expect(first).toBeGreaterThan(keys.length * 0.45);
    expect(first).toBeLessThan(keys.length * 0.55);
  });

  it('moves only the leaving member’s keys when one goes, and only the newcomer’s when one joins', () => {
    const three = ['w-1', 'w-2', 'w-3'];
    const two = ['w-1', 'w-3'];
    for (const key of keys) {
      const before = ownerOf(key, three);
      const after = ownerOf(key, two);
      if (before !== 'w-2') expect(after).toBe(before);
    }
    const moved = keys.filter((key) => ownerOf(key, three) !== ownerOf(key, two)).length;
    expect(moved).toBeGreaterThan(keys.length * 0.25);
    expect(moved).toBeLessThan(keys.length * 0.42);
  });
});

describe('membership in one process', () => {
  it('lists the members that beat within their time to live, and forgets one that leaves', async () => {
    let now = 1_000;
    const membership = createMemoryMembership(() => now);
    expect(await membership.beat('g', 'b', 300)).toEqual(['b']);
    expect(await membership.beat('g', 'a', 300)).toEqual(['a', 'b']);
    expect(await membership.beat('other', 'c', 300)).toEqual(['c']);
    now += 200;
    expect(await membership.beat('g', 'a', 300)).toEqual(['a', 'b']);
    now += 150; // b's last beat was 350 ms ago: gone
    expect(await membership.beat('g', 'a', 300)).toEqual(['a']);
    await membership.beat('g', 'b', 300);
    await membership.leave('g', 'b');
    expect(await membership.beat('g', 'a', 300)).toEqual(['a']);
  });
});
