// Ribbon commands (manifest.xml: the "Refresh all" button's ExecuteFunction refreshAll). They run in the
// shared runtime, in the same page as the task pane and the custom functions.

/** "Refresh all" on the Home tab. */
export function refreshAll(event: Office.AddinCommands.Event): void {
  // Placeholder: the real refresh (rebuild every recorded binding after showing its call cost) is wired
  // by the engine issue. Always complete the event, or Office shows the command as still running.
  event.completed();
}

// Associate at load time, as Office expects, so a click that starts the runtime finds its handler. Outside
// Office (a plain browser page that loads office.js) there may be no Office.actions.
if (typeof Office !== 'undefined' && Office.actions) {
  Office.actions.associate('refreshAll', refreshAll);
}
