// A small runner for the browser journeys: each journey gets a fresh browser context (so fresh add-in
// storage and a new, empty workbook), a time limit, at most one retry, a screenshot and the page's console
// on failure, and a line in the summary. Journeys wait on what the page shows (Playwright's auto-waiting
// locators on roles, labels and text), never on the clock.

import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';

export const SCREENSHOTS = path.join(__dirname, 'screenshots');
export const FAILURES = path.join(__dirname, 'failures');

export interface JourneyContext {
  page: Page;
  context: BrowserContext;
  /** Saves test/e2e/screenshots/<name>.png (committed: the README shows them). */
  shot(name: string): Promise<void>;
  /** Names the current step, for the failure report. */
  step(name: string): void;
  log(message: string): void;
  /** Requests for the page's own files that failed (status 400 and up) since the page opened. */
  failedRequests(): string[];
}

export interface Journey {
  name: string;
  run: (ctx: JourneyContext) => Promise<void>;
  /** Opens the page the journey starts on, when not the run's usual page (RunOptions.open). */
  open?: (page: Page) => Promise<void>;
  /** Set when the journey cannot run yet: the reason names the missing feature. */
  skip?: string;
  timeoutMs?: number;
}

export interface JourneyResult {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  attempts: number;
  ms: number;
  error?: string;
  step?: string;
  screenshot?: string;
  reason?: string;
}

export interface RunOptions {
  browser: Browser;
  /** Opens the page a journey starts on. */
  open: (page: Page) => Promise<void>;
  /** At most this many attempts per journey (default 2: one retry). */
  attempts?: number;
  timeoutMs?: number;
  /** Only journeys whose name contains this (E2E_GREP). */
  grep?: string;
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
}

class Timeout extends Error {}

async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Timeout(`${what} did not finish within ${Math.round(ms / 1000)} s`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function attempt(journey: Journey, options: RunOptions, n: number): Promise<Omit<JourneyResult, 'attempts' | 'ms' | 'name' | 'status'> | null> {
  const context = await options.browser.newContext({
    viewport: { width: 1440, height: 900 },
    ignoreHTTPSErrors: true,
    locale: 'en-US',
    timezoneId: 'America/Los_Angeles',
  });
  context.setDefaultTimeout(30_000);
  context.setDefaultNavigationTimeout(60_000);
  const page = await context.newPage();
  const consoleLines: string[] = [];
  const failedRequests: string[] = [];
  page.on('response', (r) => {
    // The page's own files only: the API's refusals (a cap, a permission) are answers, not broken links.
    if (r.status() >= 400 && new URL(r.url()).origin === new URL(page.url()).origin) failedRequests.push(`${r.status()} ${r.url()}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') consoleLines.push(`[${m.type()}] ${m.text()}`);
  });
  page.on('pageerror', (e) => consoleLines.push(`[pageerror] ${e.message}`));
  let step = 'opening the workbench';
  let stepStarted = Date.now();
  const ctx: JourneyContext = {
    page,
    context,
    shot: async (name) => {
      fs.mkdirSync(SCREENSHOTS, { recursive: true });
      // Transitions finished (Fluent animates tab indicators and message bars), the caret hidden.
      await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), animations: 'disabled', caret: 'hide' });
    },
    step: (name) => {
      if (process.env.E2E_VERBOSE) console.log(`      [${((Date.now() - stepStarted) / 1000).toFixed(1)} s] ${step}`);
      stepStarted = Date.now();
      step = name;
    },
    log: (message) => console.log(`      ${message}`),
    failedRequests: () => [...failedRequests],
  };
  try {
    await withTimeout(
      (async () => {
        await (journey.open ?? options.open)(page);
        step = 'starting';
        await journey.run(ctx);
      })(),
      journey.timeoutMs ?? options.timeoutMs ?? 180_000,
      `"${journey.name}"`,
    );
    return null;
  } catch (error) {
    fs.mkdirSync(FAILURES, { recursive: true });
    const file = path.join(FAILURES, `${slug(journey.name)}-attempt-${n}.png`);
    await page.screenshot({ path: file, fullPage: false }).catch(() => undefined);
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    const tail = consoleLines.slice(-15);
    return {
      error: tail.length ? `${message}\n      page console (last ${tail.length}):\n        ${tail.join('\n        ')}` : message,
      step,
      screenshot: path.relative(process.cwd(), file),
    };
  } finally {
    await context.close().catch(() => undefined);
  }
}

export async function runJourneys(journeys: Journey[], options: RunOptions): Promise<JourneyResult[]> {
  const results: JourneyResult[] = [];
  const attempts = options.attempts ?? 2;
  for (const journey of journeys) {
    if (options.grep && !journey.name.toLowerCase().includes(options.grep.toLowerCase())) continue;
    if (journey.skip) {
      console.log(`  - SKIPPED ${journey.name}\n      reason: ${journey.skip}`);
      results.push({ name: journey.name, status: 'skipped', attempts: 0, ms: 0, reason: journey.skip });
      continue;
    }
    const t0 = Date.now();
    let failure: Awaited<ReturnType<typeof attempt>> = null;
    let n = 0;
    for (n = 1; n <= attempts; n++) {
      console.log(`  … ${journey.name}${n > 1 ? ` (retry ${n - 1})` : ''}`);
      failure = await attempt(journey, options, n);
      if (!failure) break;
      console.log(`      attempt ${n} failed at step "${failure.step}": ${failure.error?.split('\n')[0]}`);
    }
    const ms = Date.now() - t0;
    if (!failure) {
      console.log(`  ✓ ${journey.name} (${(ms / 1000).toFixed(1)} s${n > 1 ? `, passed on retry ${n - 1}` : ''})`);
      results.push({ name: journey.name, status: 'passed', attempts: n, ms });
    } else {
      console.log(`  ✗ ${journey.name} (${(ms / 1000).toFixed(1)} s)\n      step: ${failure.step}\n      screenshot: ${failure.screenshot}\n      ${failure.error}`);
      results.push({ name: journey.name, status: 'failed', attempts: attempts, ms, ...failure });
    }
  }
  return results;
}
