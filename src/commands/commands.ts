// Ribbon commands (manifest.xml: the ExecuteFunction of the "Refresh", "Refresh sheet" and "Refresh
// selection" buttons). They run in the shared runtime, in the same page as the task pane and the custom
// functions.
import { requestPane, type PaneRequest } from '../runtime';

/**
 * "Refresh" on the Home tab. Every refresh shows its cost before it spends it, and a ribbon button has
 * nowhere to ask, so it opens the task pane at Refresh with the cost of Refresh changes (the cheap kind:
 * 1 call when nothing changed) shown and one button to go ahead.
 */
export function refreshAll(event: Office.AddinCommands.Event): Promise<void> {
  return askPane(event, 'refresh-all');
}

/** "Refresh sheet": the pane shows what refreshing the active sheet alone costs, and one button to go ahead. */
export function refreshSheet(event: Office.AddinCommands.Event): Promise<void> {
  return askPane(event, 'refresh-sheet');
}

/** "Refresh selection": the same for the selected cells. */
export function refreshSelection(event: Office.AddinCommands.Event): Promise<void> {
  return askPane(event, 'refresh-selection');
}

async function askPane(event: Office.AddinCommands.Event, request: PaneRequest): Promise<void> {
  try {
    requestPane(request);
    await Office.addin.showAsTaskpane();
  } catch (error) {
    console.error('Refresh: could not open the task pane', error instanceof Error ? error.message : String(error));
  } finally {
    // Always complete the event, or Office shows the command as still running.
    event.completed();
  }
}

// Associate at load time, as Office expects, so a click that starts the runtime finds its handler. Outside
// Office (a plain browser page that loads office.js) there may be no Office.actions.
if (typeof Office !== 'undefined' && Office.actions) {
  Office.actions.associate('refreshAll', refreshAll);
  Office.actions.associate('refreshSheet', refreshSheet);
  Office.actions.associate('refreshSelection', refreshSelection);
}
