/** @jest-environment ./test/support/jsdom-with-fetch.js */
// Disconnect removes the key; asked to, it also forgets what this computer keeps about the company: its
// cached answers (in the add-in's storage, shared by every add-in of the same origin) and the pane's log of
// actions. Figures already in the workbook stay either way.
import { connected, openTab, renderPane, screen, startSandbox, waitFor, type PaneHarness, type TestSandbox } from './harness';
import { apiKeySecret, getFinService } from '../../src/runtime';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

const OTHER_COMPANY_ANSWER = 'fin-cache:comp_other:/categories';

/** Connects, and fills the cache with one answer (the categories) besides the action log's Connect entry. */
async function connectAndUse(h: PaneHarness): Promise<string> {
  await connected(h, sb);
  const company = sb.companies['growth-admin'];
  await (await getFinService())!.categories();
  expect((await h.cacheStore.keys()).filter((k) => k.startsWith(`fin-cache:${company}:`)).length).toBeGreaterThan(0);
  await waitFor(async () => expect(await h.paneStorage.get(`actions:${company}`)).toContain('Connect'));
  await openTab(h, 'Connection');
  return company;
}

const answersOf = async (h: PaneHarness, company: string) => (await h.cacheStore.keys()).filter((k) => k.startsWith(`fin-cache:${company}:`));

describe('Disconnect', () => {
  test('keeps the cached answers and the action log by default', async () => {
    const h = renderPane(sb);
    const company = await connectAndUse(h);
    const forget = screen.getByRole('checkbox', { name: /^Also forget the cached answers and action log of .+ on this computer$/ });
    expect((forget as HTMLInputElement).checked).toBe(false);
    await h.user.click(screen.getByRole('button', { name: 'Disconnect' }));
    await screen.findByLabelText('API key');
    expect(await h.secrets.get(apiKeySecret(company))).toBeUndefined();
    expect((await answersOf(h, company)).length).toBeGreaterThan(0);
    expect(await h.paneStorage.get(`actions:${company}`)).toContain('Connect');
    h.unmount();
  });

  test("when asked, also forgets that company's cached answers and action log, and nothing else", async () => {
    const h = renderPane(sb);
    await h.cacheStore.set(OTHER_COMPANY_ANSWER, JSON.stringify({ value: { data: [] }, fetchedAt: 1 }));
    const company = await connectAndUse(h);
    await h.user.click(screen.getByRole('checkbox', { name: /^Also forget the cached answers and action log of .+ on this computer$/ }));
    await h.user.click(screen.getByRole('button', { name: 'Disconnect' }));
    await screen.findByLabelText('API key');
    expect(await h.secrets.get(apiKeySecret(company))).toBeUndefined();
    expect(await answersOf(h, company)).toEqual([]);
    expect(await h.paneStorage.get(`actions:${company}`)).toBeUndefined();
    expect(h.services.actions.entries(company)).toEqual([]);
    expect(await h.cacheStore.get(OTHER_COMPANY_ANSWER)).toBeDefined();
    h.unmount();
  });
});
