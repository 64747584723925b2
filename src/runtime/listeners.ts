// The runtime's listeners: who hears that FIN data changed, and who hears each settled batch of FIN
// evaluations. A listener's bug must not break the runtime, so each is called on its own.

import type { FinBatch } from '../engine/fin';

export interface RuntimeListeners {
  /** FIN data changed (new data-as-of time, a refresh, the cap block, connect/disconnect). */
  emit(): void;
  emitBatch(batch: FinBatch): void;
  onDataChange(listener: () => void): () => void;
  onFinBatch(listener: (batch: FinBatch) => void): () => void;
  clear(): void;
}

function callEach<A extends unknown[]>(listeners: Set<(...args: A) => void>, ...args: A): void {
  for (const listener of [...listeners]) {
    try {
      listener(...args);
    } catch {
      // A listener's bug must not break the runtime.
    }
  }
}

function subscribe<L>(listeners: Set<L>, listener: L): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function createListeners(): RuntimeListeners {
  const data = new Set<() => void>();
  const batches = new Set<(batch: FinBatch) => void>();
  return {
    emit: () => callEach(data),
    emitBatch: (batch) => callEach(batches, batch),
    onDataChange: (listener) => subscribe(data, listener),
    onFinBatch: (listener) => subscribe(batches, listener),
    clear: () => {
      data.clear();
      batches.clear();
    },
  };
}
