/**
 * What a ribbon command asks the task pane to do. The ribbon cannot show a cost and ask before spending,
 * so each Refresh button on the ribbon opens the pane at its Refresh section with that refresh's cost shown
 * instead: of the changes, of the active sheet, of the selection.
 */
export type PaneRequest = 'refresh-all' | 'refresh-sheet' | 'refresh-selection';

const paneListeners = new Set<(request: PaneRequest) => void>();
let undelivered: PaneRequest | null = null;

/** From a command: delivered to the pane now, or when it starts listening (it may still be loading). */
export function requestPane(request: PaneRequest): void {
  if (paneListeners.size === 0) {
    undelivered = request;
    return;
  }
  for (const listener of [...paneListeners]) listener(request);
}

/** The pane listens; a request made before it listened is delivered at once. */
export function onPaneRequest(listener: (request: PaneRequest) => void): () => void {
  paneListeners.add(listener);
  if (undelivered) {
    const request = undelivered;
    undelivered = null;
    listener(request);
  }
  return () => {
    paneListeners.delete(listener);
  };
}
