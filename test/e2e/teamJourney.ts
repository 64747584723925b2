// Issue 38: two accountants of one company, each in a browser of their own (two browser contexts: their own
// add-in storage and workbook), through nginx -> the team's gateway -> the API (a sandbox of its own). The
// first inserts the board pack; the second, once a call of her own has proven her access to the areas the pack
// reads, inserts the same pack at no call to the API; both Usage tabs then show the team's count, equal to
// the API's own counter.

import assert from 'node:assert/strict';
import type { BrowserContext, Page, Response } from 'playwright-core';
import type { Journey } from './harness';
import type { World } from './journeys';
import { connectWithKey, enterFormula, errorMessages, LONG, openPaneTab, pane, parseAmount, readGrid, showSheet, waitForPane } from './pageObjects';

const KPIS = ['Revenue', 'Cash at the month end', 'Net burn'];

async function connected(page: Page): Promise<void> {
  const p = pane(page);
  await p.getByRole('tab', { name: 'Reports', exact: true }).or(errorMessages(p)).first().waitFor({ timeout: LONG });
  if (await errorMessages(p).first().isVisible()) throw new Error(`Connect failed: ${await errorMessages(p).first().textContent()}`);
}

/** Sets the reporting period and inserts the board pack for it, as an accountant does on the Reports tab. */
async function insertBoardPack(page: Page, month: string): Promise<void> {
  const p = pane(page);
  await openPaneTab(page, 'Reports');
  await p.getByRole('textbox', { name: 'Reporting period' }).fill(month);
  await p.getByRole('status').filter({ hasText: `Moving to ${month} moves no block: costs 0 calls` }).waitFor();
  await p.getByRole('button', { name: 'Set reporting period', exact: true }).click();
  await p.getByRole('status').filter({ hasText: new RegExp(`^FIN_PERIOD is ${month} \\('Reporting period'!B1\\): spent`) }).waitFor({ timeout: LONG });
  await p.getByRole('status').filter({ hasText: /^Six statement sheets .*: costs (at least )?\d+ calls/ }).waitFor();
  await p.getByRole('button', { name: 'Insert the board pack', exact: true }).click();
  await p.getByRole('status').filter({ hasText: new RegExp(`^Inserted the board pack for ${month}`) }).waitFor({ timeout: LONG });
}

/** The KPI sheet's three figures once its formulas have calculated. */
async function settledKpis(page: Page): Promise<Record<string, number>> {
  const grid = await showSheet(page, 'Board KPIs');
  const deadline = Date.now() + LONG;
  for (;;) {
    const rows = await readGrid(grid);
    const shown = Object.fromEntries(KPIS.map((label) => [label, parseAmount(rows.find((r) => r.cells[0] === label)?.cells[1] ?? '')]));
    if (KPIS.every((label) => Number.isFinite(shown[label]))) return shown;
    if (Date.now() > deadline) assert.fail(`the KPIs did not calculate: ${JSON.stringify(shown)}`);
    await page.waitForTimeout(200);
  }
}

/** Waits until the charts' sheet holds no cell still calculating: every formula of the pack has its answer. */
async function settledCharts(page: Page): Promise<void> {
  const grid = await showSheet(page, 'Board charts');
  const deadline = Date.now() + LONG;
  for (;;) {
    const cells = (await readGrid(grid)).flatMap((r) => r.cells);
    if (cells.some((c) => parseAmount(c) !== 0 && Number.isFinite(parseAmount(c))) && !cells.some((c) => /Calculating|#BUSY/.test(c))) return;
    if (Date.now() > deadline) assert.fail('the board charts did not calculate');
    await page.waitForTimeout(200);
  }
}

/** "Your team, through the gateway: N of 30,000 this month", as the Usage tab says it. */
async function teamLine(page: Page): Promise<string> {
  await openPaneTab(page, 'Usage');
  const line = pane(page).getByTestId('usage-team');
  await line.waitFor();
  return ((await line.textContent()) ?? '').trim();
}

/** A second accountant's browser: a context of its own, as the harness makes them. */
async function secondBrowser(context: BrowserContext): Promise<{ page: Page; close: () => Promise<void> }> {
  const other = await context.browser()!.newContext({ viewport: { width: 1440, height: 900 }, ignoreHTTPSErrors: true, locale: 'en-US', timezoneId: 'America/Los_Angeles' });
  other.setDefaultTimeout(30_000);
  other.setDefaultNavigationTimeout(60_000);
  return { page: await other.newPage(), close: () => other.close() };
}

export function teamJourney(world: World): Journey {
  return {
    name: "A team of two through the gateway: the second accountant's board pack costs 0 calls, both Usage tabs show the team's count (issue 38)",
    open: async (page) => {
      const team = await world.team();
      await page.goto(`${team.origin}/workbench.html`);
      await waitForPane(page);
    },
    run: async ({ page, context, shot, step, log }) => {
      const team = await world.team();
      const sb = team.sandbox;
      const company = sb.companies['growth-admin'];
      assert.equal(sb.companies['growth-readonly'], company, 'two keys of one company (two members of its team)');
      const counted = () => sb.usage(company);
      const [y, m] = world.today.split('-').map(Number);
      const index = y * 12 + (m - 1) - 2;
      const month = `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;

      step('the first accountant connects through nginx and inserts the board pack');
      await connectWithKey(page, sb.keys['growth-admin'], 'Growth');
      await connected(page);
      const beforeFirst = await counted();
      await insertBoardPack(page, month);
      const first = await settledKpis(page);
      await settledCharts(page);
      const firstSpent = (await counted()) - beforeFirst;
      assert.ok(firstSpent > 10, `the first pack was fetched from the API (${firstSpent} calls)`);
      log(`first accountant: board pack for ${month}, ${firstSpent} calls to the API`);

      const second = await secondBrowser(context);
      try {
        const other = second.page;
        step('the second accountant connects (GET /company: her own call proves Company: View)');
        await other.goto(`${team.origin}/workbench.html`);
        await waitForPane(other);
        await connectWithKey(other, sb.keys['growth-readonly'], 'Growth');
        await connected(other);

        step('her proof call: a formula of her own reads categories (Accounting setup: View) and a total (Reports: View)');
        // A quarter the pack does not read (its months are this fiscal year and the last), with activity.
        const proof = `=FIN.TOTAL("Revenue","${y - 2}-Q4")`;
        const beforeProof = await counted();
        const proved = await enterFormula(other, proof);
        assert.doesNotMatch(proved, /#/, `the proof formula answered: ${proved}`);
        const proofCalls = (await counted()) - beforeProof;
        assert.ok(proofCalls >= 1, 'the proof was forwarded to the API (her key had proven nothing yet)');

        step('her board pack: every answer from the team cache, 0 calls to the API');
        const answers: { url: string; status: string | null }[] = [];
        const seen = (r: Response) => {
          if (new URL(r.url()).pathname.startsWith('/api/v1/')) answers.push({ url: r.url(), status: r.headers()['cache-status'] ?? null });
        };
        other.on('response', seen);
        const beforePack = await counted();
        await insertBoardPack(other, month);
        const mine = await settledKpis(other);
        await settledCharts(other);
        other.off('response', seen);
        assert.equal((await counted()) - beforePack, 0, "the second accountant's board pack cost 0 calls to the API (the sandbox's own counter)");
        assert.deepEqual(mine, first, 'the same figures as the first accountant: the API answers she fetched');
        const forwarded = answers.filter((a) => a.status !== 'fin-gateway; hit');
        assert.ok(answers.length > 10, `the pack asked the gateway (${answers.length} answers)`);
        assert.deepEqual(forwarded, [], 'every answer of her pack was served from the team cache (Cache-Status: fin-gateway; hit)');
        log(`second accountant: proof ${proof} cost ${proofCalls} calls; her pack ${answers.length} answers, all "fin-gateway; hit", 0 calls (counter ${beforePack} before and after)`);

        step("the first accountant's next answer (the same total, from the team cache) carries the team's count");
        const beforeLast = await counted();
        await enterFormula(page, proof);
        assert.equal(await counted(), beforeLast, "served from the team cache: the first accountant's key proved Reports: View with its pack");

        step("both Usage tabs show the team's count, equal to the API's counter");
        const total = await counted();
        const expected = `Your team, through the gateway: ${total.toLocaleString('en-US')} of 30,000 this month`;
        assert.equal(await teamLine(page), expected, "the first accountant's Usage tab");
        assert.equal(await teamLine(other), expected, "the second accountant's Usage tab");
        await shot('23-team-usage-through-the-gateway');
        log(`both Usage tabs: "${expected}" (the sandbox counted ${total})`);
      } finally {
        await second.close();
      }
    },
  };
}
