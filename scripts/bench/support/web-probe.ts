// What the web benchmark watches inside the page (docs/performance.md#web), installed before the
// app's own scripts run. Times are the page's own clock (ms since navigation start), taken right
// after the frame that showed the thing was produced: a requestAnimationFrame callback sees the DOM
// that frame paints; a message posted from it runs once the frame is done.

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
      afterFrame((at) => { times.profile = at; });
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
