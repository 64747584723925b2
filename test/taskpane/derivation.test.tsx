/** @jest-environment ./test/support/jsdom-with-fetch.js */
// The connection's derivation setting in the pane (issue 30): on by default; turned off, every figure is
// fetched and the setting is kept with the connection; a reason the add-in turned it off for is shown.
import { connected, openTab, renderPane, screen, startSandbox, waitFor, type TestSandbox } from './harness';
import { getConnection, getReader, setDerivation } from '../../src/runtime';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

const LABEL = 'Answer figures the monthly statements already decide from them, at no call';

test('on by default; turned off and on again from the Connection tab, kept with the connection', async () => {
  const h = renderPane(sb);
  await connected(h, sb);
  await openTab(h, 'Connection');
  const box = (await screen.findByRole('checkbox', { name: LABEL })) as HTMLInputElement;
  expect(box.checked).toBe(true);
  expect((await getReader())!.derivations.enabled).toBe(true);

  await h.user.click(box);
  await waitFor(() => expect((screen.getByRole('checkbox', { name: LABEL }) as HTMLInputElement).checked).toBe(false));
  expect(await screen.findByText(/^Off: every figure is fetched from the API\./)).toBeTruthy();
  expect((await getConnection())?.deriveFromStatements).toBe(false);
  expect((await getReader())!.derivations.enabled).toBe(false);

  await h.user.click(screen.getByRole('checkbox', { name: LABEL }));
  await waitFor(async () => expect((await getConnection())?.deriveFromStatements).toBeUndefined());
  expect((await getReader())!.derivations.enabled).toBe(true);
  h.unmount();
});

test('turned off by a full refresh that found a difference: the pane says why', async () => {
  const h = renderPane(sb);
  await connected(h, sb);
  await setDerivation(false, { because: '1 figure of the API differed from the sum of its monthly statements (x)' });
  await openTab(h, 'Connection');
  expect(await screen.findByText('Off: every figure is fetched from the API. Turned off by a full refresh: 1 figure of the API differed from the sum of its monthly statements (x). A full refresh says whether the API\'s figures match its statements.')).toBeTruthy();
  h.unmount();
});
