import { randomBytes } from 'node:crypto';
import type { CDPSession, Page } from 'playwright-core';

// What the web benchmark reads in the page (docs/performance.md#web), and the floor's page. The
// probe is installed before the app's own scripts run. Times are the page's own clock (ms since
// navigation start), taken right after the frame that showed the thing was produced: a
// requestAnimationFrame callback sees the DOM that frame paints; a message posted from it runs once
// the frame is done.

export type ProbeTimes = {
  /** The tab bar painted in the viewport (it appears once the initial load has settled). */
  tabBar: number | null;
  /** The bench's tap on the Profile tab reached the page (touchstart). */
  tap: number | null;
  /** The Profile screen painted with its data: no loader or skeleton left in the viewport. */
  profile: number | null;
};

export type TapTarget = { x: number; y: number };

/** Name of the binding the probe calls with the Profile tab's centre once the tab bar is shown. */
export const TAB_BAR_SHOWN = '__benchTabBarShown';
/**
 * Name of the binding the probe calls with its times once the Profile screen is painted (and the
 * floor's page once its last byte has arrived). The bench waits on it instead of polling the page:
 * Playwright's `waitForFunction` first evaluates its own injected script in the page (~0.1–0.2 s
 * of main thread at 4× CPU, in the middle of the load) and then runs a check every 100 ms.
 */
export const DONE = '__benchDone';

/**
 * Plain script text (not a serialised function: tsx's name helpers would not exist in the page).
 * `window.__benchProbe` holds the ProbeTimes.
 */
export const PROBE_SCRIPT = `(() => {
  const times = { tabBar: null, tap: null, profile: null };
  window.__benchProbe = times;
  const inView = (element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && box.bottom > 0 && box.top < window.innerHeight;
  };
  const busyInView = () =>
    [...document.querySelectorAll('.loader, .skeleton, [aria-busy="true"], #boot')].some(inView);
  const afterFrame = (record) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => record(performance.now());
    channel.port2.postMessage(null);
  };
  window.addEventListener('touchstart', () => { if (times.tap === null) times.tap = performance.now(); },
    { capture: true, passive: true });
  const tabBarShown = () => {
    const bar = document.querySelector('nav.tabbar');
    return bar && inView(bar) && !document.querySelector('#boot') ? bar : null;
  };
  const profileShown = () =>
    location.pathname.replace(/\\/$/, '') === '/profile' &&
    document.querySelector('nav.tabbar a[data-tab="profile"][aria-current="page"]') &&
    document.querySelector('main.content .identity') &&
    !busyInView();
  // Checked in the frame after the DOM changed (a MutationObserver schedules one animation frame), so
  // the probe costs the page nothing while nothing changes and adds no frames of its own.
  let barSeen = false;
  let done = false;
  let scheduled = false;
  const check = () => {
    scheduled = false;
    if (!barSeen) {
      const bar = tabBarShown();
      if (!bar) return;
      barSeen = true;
      afterFrame((at) => {
        times.tabBar = at;
        const tab = bar.querySelector('a[data-tab="profile"]').getBoundingClientRect();
        window.${TAB_BAR_SHOWN}({ x: tab.x + tab.width / 2, y: tab.y + tab.height / 2 });
      });
    } else if (!done && times.tap !== null && profileShown()) {
      done = true;
      afterFrame((at) => {
        times.profile = at;
        window.${DONE}(times);
      });
    }
  };
  const schedule = () => {
    if (done || scheduled) return;
    scheduled = true;
    requestAnimationFrame(check);
  };
  new MutationObserver(schedule).observe(document, { subtree: true, childList: true, attributes: true });
  window.addEventListener('touchend', schedule, { capture: true, passive: true });
})();`;

export type Moved = { bytes: number; requests: number };
export type Encoded = { url: string; type: string; encoding: string; bytes: number };
/** What the page requested (and moved) before `at`, by its resource timing, and its waterfall. */
export const requestsBefore = (page: Page, at: number) =>
  page.evaluate((until) => {
    const entries = [
      ...performance.getEntriesByType('navigation'),
      ...performance.getEntriesByType('resource'),
    ] as PerformanceResourceTiming[];
    const before = entries.filter((entry) => entry.startTime <= until);
    return {
      bytes: before.reduce((sum, entry) => sum + entry.transferSize, 0),
      requests: before.length,
      waterfall: [...before, ...performance.getEntriesByType('mark')]
        .sort((a, b) => a.startTime - b.startTime)
        .map((entry) =>
          'responseEnd' in entry
            ? `${String(Math.round(entry.startTime)).padStart(6)} → ${String(Math.round(entry.responseEnd)).padStart(6)} ms ` +
              `${String(entry.transferSize).padStart(7)} B  ${new URL(entry.name).pathname}`
            : `${String(Math.round(entry.startTime)).padStart(6)}             mark ${entry.name}`,
        ),
    };
  }, at);

/** Every script and stylesheet response with its Content-Encoding and its bytes on the wire. */
export const recordEncodings = (cdp: CDPSession) => {
  const seen = new Map<string, Encoded>();
  cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
    if (type !== 'Script' && type !== 'Stylesheet') return;
    const encoding = Object.entries(response.headers).find(
      ([name]) => name.toLowerCase() === 'content-encoding',
    );
    seen.set(requestId, { url: response.url, type, encoding: encoding?.[1] ?? '', bytes: 0 });
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    const entry = seen.get(requestId);
    if (entry) entry.bytes = encodedDataLength;
  });
  return () => [...seen.values()];
};

/** `count` incompressible bytes of HTML (base64 in a comment). */
const filler = (count: number) => {
  const body = count - 7;
  return body > 0
    ? `<!--${randomBytes(Math.ceil((body * 3) / 4))
        .toString('base64')
        .slice(0, body)}-->`
    : '';
};

const mark = (name: string) => `<script>performance.mark('${name}')</script>`;

/**
 * The floor's page: `first` bytes, then the mark `a`, then more up to `total` bytes, then the mark
 * `b`, all incompressible; streamed, the marks run as their bytes arrive.
 */
export const floorDocument = (first: number, total: number): string => {
  const head = '<!doctype html><title>floor</title>';
  const firstPart = `${head}${filler(first - head.length - mark('a').length)}${mark('a')}`;
  const last = `<script>performance.mark('b');window.${DONE}()</script>`;
  return `${firstPart}${filler(total - firstPart.length - last.length)}${last}`;
};
