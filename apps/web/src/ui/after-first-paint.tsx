import { type ReactNode, startTransition, useEffect, useState } from 'react';

/** Whether the app has painted a screen once: from then on everything renders at once. */
let painted = false;

/**
 * Sections below the fold of the first screen (docs/performance.md#web): on the first screen of the
 * page they render right after it has been painted (the frame after next), as an interruptible
 * transition, so a phone lays out less before the user sees the screen; on any later screen, at
 * once. They show nothing in the meantime: no placeholder comes into view.
 */
export const AfterFirstPaint = ({ children }: { children: ReactNode }) => {
  const [shown, setShown] = useState(painted);
  useEffect(() => {
    if (shown) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A timer queued from an animation frame runs once that frame has been painted.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        painted = true;
        startTransition(() => setShown(true));
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [shown]);
  return shown ? children : null;
};
