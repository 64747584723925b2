import { webDarkTheme, webLightTheme, type Theme } from '@fluentui/react-components';
import { createRoot, type Root } from 'react-dom/client';
import { OfficeGateway } from '../excel/officeGateway';
import { OfficeRuntimeSecretStore } from '../excel/secretStore';
import * as runtime from '../runtime';
import { App, OutsideExcel } from './App';
import { createPaneServices, type PaneServices } from './services';

// Entry of the shared page (taskpane.html), which also loads the functions and commands bundles: one
// runtime for the pane, the custom functions and the ribbon commands. The only file of the pane that
// touches Office: the theme, the Office gateway and add-in storage are made here and passed down.

/** Relative luminance of a #rrggbb colour, 0 (black) to 1 (white); NaN when unreadable. */
function luminance(hex: string | undefined): number {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex ?? '');
  if (!m) return NaN;
  const [r, g, b] = m.slice(1).map((h) => parseInt(h, 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Fluent's dark or light theme, following Office's theme when Office tells us. */
export function pickTheme(officeTheme: Office.OfficeTheme | undefined): Theme {
  if (!officeTheme) return webLightTheme;
  if (typeof officeTheme.isDarkTheme === 'boolean') return officeTheme.isDarkTheme ? webDarkTheme : webLightTheme;
  return luminance(officeTheme.bodyBackgroundColor) < 0.5 ? webDarkTheme : webLightTheme;
}

function currentOfficeTheme(): Office.OfficeTheme | undefined {
  try {
    return Office.context?.officeTheme ?? undefined;
  } catch {
    return undefined; // officeTheme throws in hosts that do not support it
  }
}

function createServices(): PaneServices | null {
  if (!runtime.getRuntimeHost()) return null; // outside Excel: no add-in storage, no workbook
  return createPaneServices({
    gateway: new OfficeGateway(),
    runtime,
    // The pane's own settings (plan, company name, action log) next to the key, in add-in storage.
    storage: new OfficeRuntimeSecretStore(OfficeRuntime.storage, 'fin.pane.'),
  });
}

let root: Root | null = null;

function render(theme: Theme, services: PaneServices | null): void {
  const container = document.getElementById('root');
  if (!container) throw new Error('taskpane.html has no #root element');
  root ??= createRoot(container);
  root.render(
    services ? (
      <App theme={theme} services={services} />
    ) : (
      <OutsideExcel theme={theme} />
    ),
  );
}

if (typeof Office !== 'undefined') {
  Office.onReady(() => {
    // Excel has no theme-changed event for add-ins (OfficeThemeChanged is Outlook's): the theme is read
    // when the pane opens, which is when Office applies a changed theme to it anyway.
    render(pickTheme(currentOfficeTheme()), createServices());
  });
} else {
  // office.js did not load (opened outside Office without it): say so instead of a blank page.
  render(webLightTheme, null);
}
