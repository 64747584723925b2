import { webDarkTheme, webLightTheme, type Theme } from '@fluentui/react-components';
import { createRoot } from 'react-dom/client';
import { App } from './App';

// Entry of the shared page (taskpane.html), which also loads the functions and commands bundles: one
// runtime for the pane, the custom functions and the ribbon commands.

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

function render(theme: Theme): void {
  const container = document.getElementById('root');
  if (!container) throw new Error('taskpane.html has no #root element');
  createRoot(container).render(<App theme={theme} />);
}

if (typeof Office !== 'undefined') {
  Office.onReady(() => render(pickTheme(currentOfficeTheme())));
} else {
  // office.js did not load (opened outside Office without it): still show the pane.
  render(webLightTheme);
}
