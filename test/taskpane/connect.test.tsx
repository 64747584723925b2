/** @jest-environment ./test/support/jsdom-with-fetch.js */
import { ERROR_NAME, errorText, connected, connectWith, renderPane, reportsSettled, screen, startSandbox, waitFor, type TestSandbox } from './harness';
import { CONNECTIONS_SECRET, apiKeySecret, getClient } from '../../src/runtime';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

describe('Connect', () => {
  test('a good key connects: validated with GET /company, stored in add-in storage, never in the workbook', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    expect(screen.getByText(/Growth plan/)).toBeTruthy();
    // Focus moves to the first tab's heading.
    expect(document.activeElement?.textContent).toBe('Insert a statement');
    expect(await h.secrets.get(apiKeySecret(sb.companies['growth-admin']))).toBe(sb.keys['growth-admin']);
    expect(JSON.parse((await h.secrets.get(CONNECTIONS_SECRET))!)).toMatchObject({ list: [{ companyId: sb.companies['growth-admin'] }] });
    // Nothing about the key in the workbook, and one call spent on validating it.
    expect(await h.gateway.listBindings()).toEqual([]);
    expect(document.body.innerHTML).not.toContain(sb.keys['growth-admin']);
    expect(await sb.usage(sb.companies['growth-admin'])).toBe(1);
    h.unmount();
  });

  test('Disconnect removes the key and returns to the form, focus on the key field', async () => {
    const h = renderPane(sb);
    await connected(h, sb);
    await h.user.click(screen.getByRole('tab', { name: 'Connection' }));
    expect(screen.getByText(/Connected to/)).toBeTruthy();
    await h.user.click(screen.getByRole('button', { name: 'Disconnect' }));
    const key = await screen.findByLabelText('API key');
    await waitFor(() => expect(document.activeElement).toBe(key));
    expect(await h.secrets.get(apiKeySecret(sb.companies['growth-admin']))).toBeUndefined();
    expect(await getClient()).toBeNull();
    h.unmount();
  });

  test('reopening the pane restores the stored connection without a call, with its plan and name', async () => {
    const h = renderPane(sb);
    await connected(h, sb, 'startup-admin', 'startup');
    const company = sb.companies['startup-admin'];
    const before = await sb.usage(company);
    h.unmount();
    const again = renderPane(sb, { stores: h.stores });
    await reportsSettled();
    expect(screen.getByText(/Startup plan/)).toBeTruthy();
    expect(await sb.usage(company)).toBe(before);
    again.unmount();
  });

  test('Try the demo company connects to the sandbox with the Growth plan', async () => {
    const h = renderPane(sb);
    await h.user.click(await screen.findByRole('button', { name: 'Try the demo company' }));
    await screen.findByRole('tab', { name: 'Reports' }, { timeout: 15000 });
    expect(screen.getByText(/Growth plan/)).toBeTruthy();
    expect(await h.secrets.get(apiKeySecret(sb.companies['growth-admin']))).toBe(sb.keys['growth-admin']);
    h.unmount();
  });

  test('the demo says when the sandbox is not running', async () => {
    const h = renderPane({ ...sb, baseUrl: 'http://127.0.0.1:9/api/v1' });
    await h.user.click(await screen.findByRole('button', { name: 'Try the demo company' }));
    const text = await errorText();
    expect(text).toMatch(/sandbox is not running/i);
    expect(text).toMatch(/npm start/);
    h.unmount();
  });

  test('a mistyped key: 401 message says it was revoked or mistyped and where to get a new one', async () => {
    const h = renderPane(sb);
    await h.user.type(await screen.findByLabelText('API key'), 'svc_not_a_real_key_123');
    await h.user.click(screen.getByRole('button', { name: 'Connect' }));
    const text = await errorText();
    expect(text).toMatch(/revoked or mistyped/);
    expect(text).toMatch(/Settings > API Keys/);
    expect(text).not.toContain('svc_not_a_real_key_123');
    // The refused key is cleared from the field, so it is nowhere in the page any more.
    expect((screen.getByLabelText('API key') as HTMLInputElement).value).toBe('');
    expect(document.body.innerHTML).not.toContain('svc_not_a_real_key_123');
    expect(screen.queryByRole('tab', { name: 'Reports' })).toBeNull();
    h.unmount();
  });

  test('a revoked key: the same 401 message, nothing stored', async () => {
    const h = renderPane(sb);
    await connectWith(h, sb, 'revoked');
    const text = await errorText();
    expect(text).toMatch(/API key not accepted/);
    expect(text).toMatch(/revoked or mistyped/);
    expect(text).not.toContain(sb.keys.revoked);
    expect(JSON.parse((await h.secrets.get(CONNECTIONS_SECRET)) ?? '{"list":[]}')).toMatchObject({ list: [] });
    h.unmount();
  });

  test('no API access: 403 message names the API access permission', async () => {
    const h = renderPane(sb);
    await connectWith(h, sb, 'growth-no-api');
    const text = await errorText();
    expect(text).toMatch(/Permission missing/);
    expect(text).toMatch(/API access: Manage/);
    expect(text).toMatch(/company admin/);
    h.unmount();
  });

  test('a key without Company: View cannot be validated: the message names that permission', async () => {
    const h = renderPane(sb);
    await connectWith(h, sb, 'growth-reports');
    const text = await errorText();
    expect(text).toMatch(/Permission missing/);
    expect(text).toMatch(/Company: View/);
    h.unmount();
  });

  test.each([
    ['deactivated', /deactivated/],
    ['removed', /no longer a member/],
    ['closed', /company is closed/],
    ['no-subscription', /no active subscription/],
  ])('%s: a 403 that says what to do', async (label, pattern) => {
    const h = renderPane(sb);
    await connectWith(h, sb, label);
    expect(await errorText()).toMatch(pattern);
    h.unmount();
  });

  test('a key that is not a key, and an http base URL off this computer, are refused before any call', async () => {
    const h = renderPane(sb);
    await h.user.type(await screen.findByLabelText('API key'), 'hello world');
    await h.user.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await errorText()).toMatch(/start with svc_/);
    await h.user.clear(screen.getByLabelText('API key'));
    await h.user.type(screen.getByLabelText('API key'), sb.keys['growth-admin']);
    await h.user.click(screen.getByRole('button', { name: 'Advanced' }));
    const url = screen.getByLabelText('Base URL');
    await h.user.clear(url);
    await h.user.type(url, 'http://api.example.com/api/v1');
    await h.user.click(screen.getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(screen.getByRole('group', { name: ERROR_NAME }).textContent).toMatch(/Check the base URL/));
    h.unmount();
  });

  test('nothing answering at the base URL: says to check it and that the sandbox runs', async () => {
    const h = renderPane(sb);
    await h.user.type(await screen.findByLabelText('API key'), sb.keys['growth-admin']);
    await h.user.click(screen.getByRole('button', { name: 'Advanced' }));
    const url = screen.getByLabelText('Base URL');
    await h.user.clear(url);
    await h.user.type(url, 'http://127.0.0.1:9/api/v1');
    await h.user.click(screen.getByRole('button', { name: 'Connect' }));
    const text = await errorText();
    expect(text).toMatch(/Cannot reach the API/);
    expect(text).toMatch(/npm start/);
    h.unmount();
  });
});
