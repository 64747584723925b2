// Issue 35, item 5: the names a client learned of the API's unshown parameters go with the company's cached
// answers when the user disconnects and asks to forget them (a new key or API then learns afresh); a plain
// disconnect keeps them, as it keeps the answers.
import '../../src/workbench/customFunctionsStub';
import * as runtime from '../../src/runtime';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { sandboxWorkbench } from '../support/workbench';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  runtime.configureRuntime(null);
  await sb.close();
});

test('learned names are forgotten with the cached answers, and kept by a plain disconnect', async () => {
  sandboxWorkbench(sb);
  const company = sb.companies['growth-admin'];
  const connect = () => runtime.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth-admin'], companyId: company });
  const key = `fin-state:${company}:learned-names`;
  await connect();
  const store = runtime.getRuntimeHost()!.cacheStore;
  await store.set(key, JSON.stringify({ [sb.baseUrl]: { '/aggregations/total': 'category' } }));

  await runtime.disconnect();
  expect(await store.get(key)).toBeDefined();

  await connect();
  await runtime.disconnect({ forgetCachedAnswers: true });
  expect(await store.get(key)).toBeUndefined();
});
