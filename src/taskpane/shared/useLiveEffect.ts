import { useEffect, type DependencyList } from 'react';

/** Wraps a callback so that it does nothing once the effect that made it is over. */
export type IfLive = <A extends unknown[]>(act: (...args: A) => void) => (...args: A) => void;

/**
 * useEffect for work whose answer comes later (a read, a cost, a list): the effect gets `ifLive`, and a
 * callback wrapped in it does nothing once the deps changed or the screen went, so an answer for the old
 * inputs never lands over the new one's. What a rejection does stays the caller's to say. The deps are
 * checked as useEffect's are (react-hooks/exhaustive-deps names this hook in eslint.config.js).
 */
export function useLiveEffect(effect: (ifLive: IfLive) => void | (() => void), deps: DependencyList): void {
  useEffect(() => {
    let live = true;
    const ifLive: IfLive =
      (act) =>
      (...args) => {
        if (live) act(...args);
      };
    const cleanup = effect(ifLive);
    return () => {
      live = false;
      cleanup?.();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's deps, checked where it is called
  }, deps);
}
