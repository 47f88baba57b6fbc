import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * axe-core's browser build, evaluated in the page under test (nothing of it ships in the bundle).
 * Evaluated rather than added as a script tag: the app's Content-Security-Policy forbids inline
 * scripts, and the check must not need the policy loosened.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export type AxeFinding = { rule: string; impact: string; help: string; targets: string[] };

/**
 * Runs axe-core's WCAG 2 A and AA rules on the page and returns the serious and critical
 * violations, each with the elements it found (CSS selectors and, for contrast, axe's figures).
 * Text axe cannot decide (on a gradient, under an overlay or a translucent bar) is measured here
 * against every colour of the background behind it: the gradient's stops, or a translucent
 * colour laid over the ancestors' backgrounds.
 */
export const seriousViolations = async (page: Page): Promise<AxeFinding[]> => {
  const injected = await page.evaluate(() => 'axe' in window);
  if (!injected) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    type AxeNode = { target: string[]; failureSummary?: string };
    type AxeRule = { id: string; impact: string | null; help: string; nodes: AxeNode[] };
    type AxeResult = { violations: AxeRule[]; incomplete: AxeRule[] };
    const axe = (
      window as unknown as { axe: { run: (context: Document, options: unknown) => Promise<AxeResult> } }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] },
      resultTypes: ['violations', 'incomplete'],
    });
    const findings = result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        rule: violation.id,
        impact: violation.impact ?? '',
        help: violation.help,
        targets: violation.nodes.map(
          (node) =>
            `${node.target.join(' ')} — ${(node.failureSummary ?? '').split('\n').slice(1).join(' ')}`,
        ),
      }));

    // Any CSS colour to RGBA bytes, through a canvas (handles color(srgb …) from color-mix).
    const canvas = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    if (!canvas) throw new Error('no canvas');
    const rgba = (color: string): [number, number, number, number] => {
      canvas.clearRect(0, 0, 1, 1);
      canvas.fillStyle = '#000';
      canvas.fillStyle = color;
      canvas.fillRect(0, 0, 1, 1);
      const [r = 0, g = 0, b = 0, a = 0] = canvas.getImageData(0, 0, 1, 1).data;
      return [r, g, b, a / 255];
    };
    const over = (top: number[], below: number[]) =>
      [0, 1, 2].map((i) => (top[i] ?? 0) * (top[3] ?? 1) + (below[i] ?? 0) * (1 - (top[3] ?? 1)));
    const luminance = (rgb: number[]) => {
      const [r = 0, g = 0, b = 0] = rgb.map((value) => {
        const c = value / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const ratio = (a: number[], b: number[]) => {
      const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return ((high ?? 0) + 0.05) / ((low ?? 0) + 0.05);
    };
    /** The colours behind an element: gradient stops, or its stack of background colours. */
    const backgroundsOf = (element: Element): number[][] => {
      const layers: Array<[number, number, number, number]> = [];
      for (let node: Element | null = element; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        const stops = style.backgroundImage.match(/(rgba?|color)\([^)]*\)/g);
        if (stops) {
          return stops.map((stop) =>
            layers.reduceRight((below, layer) => over(layer, below), over(rgba(stop), [255, 255, 255])),
          );
        }
        const color = rgba(style.backgroundColor);
        if (color[3] > 0) layers.push(color);
        if (color[3] === 1) break;
      }
      layers.push([255, 255, 255, 1]);
      return [layers.reduceRight<number[]>((below, layer) => over(layer, below), [255, 255, 255])];
    };
    const undecided = result.incomplete.find((rule) => rule.id === 'color-contrast')?.nodes ?? [];
    const low: string[] = [];
    for (const node of undecided) {
      const element = document.querySelector(node.target.join(' '));
      if (!element) continue;
      const style = getComputedStyle(element);
      const size = Number.parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      const needed = large ? 3 : 4.5;
      const text = over(rgba(style.color), backgroundsOf(element)[0] ?? [255, 255, 255]);
      const worst = Math.min(...backgroundsOf(element).map((background) => ratio(text, background)));
      if (worst < needed)
        low.push(`${node.target.join(' ')} — ${worst.toFixed(2)}:1 on its background, needs ${needed}:1`);
    }
    if (low.length > 0) {
      findings.push({
        rule: 'color-contrast (measured: gradient, overlay or translucent background)',
        impact: 'serious',
        help: 'Text must reach 4.5:1 (3:1 when large) on every colour behind it',
        targets: low,
      });
    }
    return findings;
  });
};

/** The smallest tap target a finger hits reliably (apps/web/README.md#colours-and-contrast). */
export const MIN_TAP_TARGET = 44;

/**
 * Controls smaller than 44×44 px, as "selector (width×height)". Links inside a sentence are
 * exempt: they are sized by the text around them.
 */
export const smallTapTargets = (page: Page): Promise<string[]> =>
  page.evaluate((min) => {
    const controls = document.querySelectorAll<HTMLElement>(
      'a[href], button, input:not([type="hidden"]), select, textarea, [role="switch"], [role="button"], [tabindex]:not([tabindex="-1"])',
    );
    const describe = (element: HTMLElement) =>
      `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).trim().split(/\s+/).join('.')}` : ''}` +
      ` "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 30)}"`;
    const small: string[] = [];
    for (const element of controls) {
      if (element.closest('p')) continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (element.closest('[aria-hidden="true"], .visually-hidden')) continue;
      // Half a pixel of rounding (sub-pixel layout) is not a smaller target.
      if (box.width + 0.5 < min || box.height + 0.5 < min) {
        small.push(`${describe(element)} (${Math.round(box.width)}×${Math.round(box.height)})`);
      }
    }
    return small;
  }, MIN_TAP_TARGET);

/**
 * Problems with the heading outline: exactly one h1, first; no level skipped on the way down
 * (h1 → h3 without an h2).
 */
export const headingProblems = (page: Page): Promise<string[]> =>
  page.evaluate(() => {
    const headings = [
      ...document.querySelectorAll<HTMLElement>('h1, h2, h3, h4, h5, h6, [role="heading"]'),
    ].filter((heading) => heading.getClientRects().length > 0 && !heading.closest('[aria-hidden="true"]'));
    const levelOf = (heading: HTMLElement) =>
      Number(heading.getAttribute('aria-level') ?? heading.tagName.slice(1));
    const problems: string[] = [];
    const ones = headings.filter((heading) => levelOf(heading) === 1);
    if (ones.length !== 1) problems.push(`${ones.length} h1 elements`);
    let previous = 0;
    for (const heading of headings) {
      const level = levelOf(heading);
      const text = (heading.textContent ?? '').trim().slice(0, 40);
      if (previous === 0 && level !== 1) problems.push(`first heading is h${level} "${text}"`);
      if (previous > 0 && level > previous + 1) problems.push(`h${previous} → h${level} "${text}"`);
      previous = level;
    }
    return problems;
  });

/**
 * Text cut by the layout: an element that clips its own text (ellipsis or hidden overflow) and
 * whose content is wider or taller than its box. Such text is unreadable in longer languages.
 */
export const cutTexts = (page: Page): Promise<string[]> =>
  page.evaluate(() => {
    const cut: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>('body *')) {
      if (element.children.length > 0 && element.childElementCount === element.childNodes.length) continue;
      const style = getComputedStyle(element);
      const clips =
        style.textOverflow === 'ellipsis' || style.overflowX === 'hidden' || style.overflowY === 'hidden';
      if (!clips || !(element.textContent ?? '').trim()) continue;
      if (element.closest('.visually-hidden, [aria-hidden="true"]')) continue;
      if (element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1) {
        cut.push(
          `${element.className || element.tagName.toLowerCase()}: "${(element.textContent ?? '').trim().slice(0, 40)}"`,
        );
      }
    }
    return cut;
  });

/** What in the viewport meta forbids zooming (`user-scalable=no`, a maximum scale under 2). */
export const zoomBlockers = (page: Page): Promise<string[]> =>
  page.evaluate(() => {
    const content = document.querySelector('meta[name="viewport"]')?.getAttribute('content') ?? '';
    return content
      .split(',')
      .map((part) => part.trim().toLowerCase())
      .filter(
        (part) =>
          /^user-scalable\s*=\s*(no|0)$/.test(part) ||
          (part.startsWith('maximum-scale') && Number(part.split('=')[1]) < 2),
      );
  });
