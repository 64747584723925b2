import { useEffect, useRef, type ReactNode } from 'react';
import { useScreenStyles } from './styles';

// Where the user is looking: a long action's progress, result and error sit next to the button that
// started it, and this keeps them in sight as they appear and change (the pane scrolls the least it can,
// nothing when they are already visible), so a button near the bottom edge never hides its own outcome
// below the fold.

/** `watch`: what changes when there is something new to see (falsy: nothing to show, no scrolling). */
export function InView({ watch, children }: { watch: unknown; children: ReactNode }) {
  const styles = useScreenStyles();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Optional call: jsdom, which the pane's tests run in, has no layout and no scrollIntoView.
    if (watch) ref.current?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [watch]);
  return (
    <div ref={ref} className={styles.screen}>
      {children}
    </div>
  );
}
