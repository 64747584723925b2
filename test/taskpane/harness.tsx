// Shared set-up of the pane's component tests: a real sandbox, the real shared runtime configured with
// memory stores (as test/functions does), a MemoryGateway, and the App rendered with React Testing Library.
import timers from 'node:timers';
// jsdom's timers return numbers, and the sandbox (running in this process) calls timer.unref(): give the
// environment Node's timers, which React and Testing Library use just as well.
Object.assign(globalThis, {
  setTimeout: timers.setTimeout,
  clearTimeout: timers.clearTimeout,
  setInterval: timers.setInterval,
  clearInterval: timers.clearInterval,
  setImmediate: timers.setImmediate,
  clearImmediate: timers.clearImmediate,
});

// Two browser features jsdom lacks and Fluent's listbox keyboard support uses: ARIA reflection (it finds
// options by `element.role`) and Element.scrollTo (it keeps the active option in view).
if (typeof Element !== 'undefined') {
  if (!('role' in Element.prototype)) {
    Object.defineProperty(Element.prototype, 'role', {
      configurable: true,
      get(this: Element) {
        return this.getAttribute('role');
      },
      set(this: Element, value: string | null) {
        if (value === null) this.removeAttribute('role');
        else this.setAttribute('role', value);
      },
    });
  }
  if (!Element.prototype.scrollTo) Element.prototype.scrollTo = function scrollTo() {};
}

import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createDOMRenderer, RendererProvider, webLightTheme } from '@fluentui/react-components';
import { MemoryMeterStore } from '../../src/api';
import { MemoryCacheStore } from '../support/memoryCacheStore';
import { MemoryGateway, MemorySecretStore } from '../../src/excel/memoryGateway';
import * as runtime from '../../src/runtime';
import type { RuntimeHost } from '../../src/runtime';
import { App } from '../../src/taskpane/App';
import { createPaneServices, type PaneServices } from '../../src/taskpane/services';
import { startSandbox, type TestSandbox } from '../support/sandbox';

export { startSandbox, type TestSandbox };

/**
 * Fluent's styles are CSS rules inserted into the document; jsdom then walks every rule for each element
 * Testing Library asks the computed style of (every *ByRole query does, to skip hidden elements), which made
 * the pane suites CPU-bound. The pane tests assert roles, names and text, not looks: only the rules that
 * hide something are inserted (a Tab's reserved-space copy of its label is hidden so, and must stay out of
 * its accessible name), the other few thousand are not.
 */
const HIDES = /display:\s*none|visibility:\s*hidden/;
const unstyled = createDOMRenderer(typeof document === 'undefined' ? undefined : document, { unstable_filterCSSRule: (rule) => HIDES.test(rule) });

export interface PaneHarness {
  services: PaneServices;
  gateway: MemoryGateway;
  secrets: MemorySecretStore;
  paneStorage: MemorySecretStore;
  cacheStore: MemoryCacheStore;
  recalculations: () => number;
  user: ReturnType<typeof userEvent.setup>;
  unmount: () => void;
}

export interface Stores {
  secrets: MemorySecretStore;
  paneStorage: MemorySecretStore;
  cacheStore: MemoryCacheStore;
  meterStore: MemoryMeterStore;
  gateway: MemoryGateway;
}

/**
 * A fresh runtime and pane against the sandbox. Pass the stores of an earlier harness to reopen the pane
 * on the same add-in storage and workbook (nothing connected otherwise), and `recalculate` for what the
 * host's recalculation does besides being counted.
 */
export function renderPane(
  sb: TestSandbox,
  options: { now?: () => number; stores?: Stores; timeZone?: string; recalculate?: RuntimeHost['recalculate'] } = {},
): PaneHarness & { stores: Stores } {
  const secrets = options.stores?.secrets ?? new MemorySecretStore();
  const paneStorage = options.stores?.paneStorage ?? new MemorySecretStore();
  const cacheStore = options.stores?.cacheStore ?? new MemoryCacheStore();
  const meterStore = options.stores?.meterStore ?? new MemoryMeterStore();
  const gateway = options.stores?.gateway ?? new MemoryGateway();
  let recalculations = 0;
  runtime.configureRuntime({
    cacheStore,
    meterStore,
    secrets,
    dateSystem: async () => 1900,
    recalculate: async (recalculation) => {
      recalculations += 1;
      return options.recalculate?.(recalculation);
    },
    readWorkbookSetting: (key) => gateway.readSetting(key),
    clientOptions: { backoffBaseMs: 10, backoffCapMs: 50 },
    ...(options.now ? { now: options.now } : {}),
  });
  const services = createPaneServices({ gateway, runtime, storage: paneStorage, defaultBaseUrl: sb.baseUrl, now: options.now, timeZone: options.timeZone });
  const user = userEvent.setup();
  const view = render(
    <RendererProvider renderer={unstyled} targetDocument={document}>
      <App theme={webLightTheme} services={services} />
    </RendererProvider>,
  );
  return {
    services,
    gateway,
    secrets,
    paneStorage,
    cacheStore,
    recalculations: () => recalculations,
    user,
    unmount: view.unmount,
    stores: { secrets, paneStorage, cacheStore, meterStore, gateway },
  };
}

/** The pane over services made elsewhere (a workbench's, whose formula engine calculates the FIN cells). */
export function renderServices(services: PaneServices): { user: ReturnType<typeof userEvent.setup>; unmount: () => void } {
  const user = userEvent.setup();
  const view = render(
    <RendererProvider renderer={unstyled} targetDocument={document}>
      <App theme={webLightTheme} services={services} />
    </RendererProvider>,
  );
  return { user, unmount: view.unmount };
}

/** Connects through the form with a roster key. */
export async function connectWith(h: Pick<PaneHarness, 'user'>, sb: TestSandbox, label: string, plan = 'growth'): Promise<void> {
  const key = await screen.findByLabelText('API key');
  await h.user.type(key, sb.keys[label]);
  await h.user.selectOptions(screen.getByRole('combobox', { name: 'Plan' }), plan);
  await h.user.click(screen.getByRole('button', { name: 'Connect' }));
}

/** Connects and waits for the tabs, the Reports tab settled. */
export async function connected(h: Pick<PaneHarness, 'user'>, sb: TestSandbox, label = 'growth-admin', plan = 'growth'): Promise<void> {
  await connectWith(h, sb, label, plan);
  await reportsSettled();
}

/**
 * Waits for the Reports tab (open first on a connected pane) to have read the workbook and the cache as it
 * does on opening: the reporting period and what moving it costs, the cost of the statement chosen. Settled
 * here, inside the test's act, not during a later wait of the test's own (a sandbox count), where React
 * would see its updates outside act.
 */
export async function reportsSettled(): Promise<void> {
  await screen.findByRole('tab', { name: 'Reports' }, { timeout: 15000 });
  await waitFor(
    () => {
      expect((screen.getByRole('textbox', { name: 'Reporting period' }) as HTMLInputElement).value).not.toBe('');
      const period = within(screen.getByRole('region', { name: 'Reporting period' }))
        .getAllByRole('status')
        .map((s) => s.textContent)
        .join('');
      expect(period).not.toBe('');
      expect(period).not.toContain('Working out the cost');
      expect(screen.getAllByText(/^Costs \d+ calls? /).length).toBeGreaterThan(0);
    },
    { timeout: 15000 },
  );
}

/**
 * Connects another company through the runtime, not the pane's form, not as the default one, and waits for
 * the pane (on Reports) to take it in: the consolidated statement is priced with it. Settled here, not while
 * the test goes on preparing the workbook, outside act.
 */
export async function connectBehind(sb: TestSandbox, label: string, name: string): Promise<void> {
  await runtime.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys[label], companyId: sb.companies[label], name, makeDefault: false });
  await screen.findByText(new RegExp(`Costs \\d+ calls?: .*${name}`), {}, { timeout: 15000 });
}

/** Opens a tab, and waits for it to be shown (tabShown). */
export async function openTab(h: PaneHarness, name: string): Promise<void> {
  await h.user.click(screen.getByRole('tab', { name }));
  await tabShown(name);
}

/**
 * Waits for a tab to be selected and its selection indicator to come to rest: Fluent moves it on the next
 * animation frame, which would otherwise update the Tab outside act while the test awaits something else.
 * For a tab the pane opens itself (a ribbon command) as for one the test clicks.
 */
export async function tabShown(name: string): Promise<void> {
  await waitFor(() => {
    const tab = screen.getByRole('tab', { name });
    expect(tab.getAttribute('aria-selected')).toBe('true');
    expect(tab.style.getPropertyValue('--fui-Tab__indicator--scale')).toBe('1');
  });
}

/** An error message on screen: Fluent's error MessageBar, a group named "Error: <its title>". */
export const ERROR_NAME = /^Error: /;

/** The text of the error message once it appears. */
export async function errorText(): Promise<string> {
  const bar = await screen.findByRole('group', { name: ERROR_NAME }, { timeout: 15000 });
  return bar.textContent ?? '';
}

export { screen, waitFor, within };
