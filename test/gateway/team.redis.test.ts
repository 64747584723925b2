// A team on two gateway instances sharing one Redis, behind nginx (deploy/nginx/fin-addin-gateway.conf),
// in front of the real sandbox: the meter and the cache are the team's whichever instance answers, 50
// members at once count exactly what the API counted, and Redis stopped mid-run costs no stale answer and
// says the uncertainty. Runs with GATEWAY_REDIS_TESTS=1 (`npm run test:team`), nginx and redis-server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { startRelay, type Relay } from '../e2e/relay';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { describeWithRedis, startRedis, type TestRedis } from './redisServer';
import { startTestGateway, type TestGateway } from './support';
import { relayClient, type Answer } from './teamNginx';

const PACK = [
  '/reports/balance_sheet?date=2026-09-30',
  '/reports/income_statement?start_date=2026-07-01&end_date=2026-09-30',
  '/reports/income_statement?start_date=2026-04-01&end_date=2026-06-30',
  '/reports/cash_flow?start_date=2026-01-01&end_date=2026-09-30',
  '/categories',
  '/departments',
];

describeWithRedis('two gateway instances on one Redis, behind nginx', () => {
  let sb: TestSandbox;
  let redis: TestRedis;
  let gws: TestGateway[];
  let relay: Relay;
  let client: ReturnType<typeof relayClient>;
  let site: string;
  let growth: string;

  beforeAll(async () => {
    sb = await startSandbox();
    growth = sb.companies['growth-admin'];
    redis = await startRedis();
    gws = [];
    for (let i = 0; i < 2; i++) gws.push(await startTestGateway(sb.baseUrl, { env: { GATEWAY_REDIS_URL: redis.url } }));
    site = fs.mkdtempSync(path.join(os.tmpdir(), 'wt-gws-site-'));
    fs.writeFileSync(path.join(site, 'index.html'), '<!doctype html><title>fin</title>');
    relay = await startRelay({ siteDir: site, gateways: gws.map((g) => `127.0.0.1:${g.port}`) });
    client = relayClient(relay);
  });
  afterAll(async () => {
    client?.close();
    await relay?.close();
    for (const g of gws ?? []) await g.close();
    await redis?.close();
    await sb?.close();
    fs.rmSync(site, { recursive: true, force: true });
  });
  beforeEach(async () => {
    const admin = new Redis(redis.url);
    await admin.flushall();
    admin.disconnect();
    await sb.control('usage', { company_id: growth, count: 0 });
  });

  const members = async (count: number): Promise<string[]> =>
    ((await sb.control('keys', { company_id: growth, template: 'read_only', count })) as { keys: string[] }).keys;

  /** The team's count as a final no-cache call gets it, and the sandbox's counter after that call. */
  async function finalCounts(key: string): Promise<{ team: number; api: number; last: Answer }> {
    const last = await client.get(key, '/company', 'no-cache');
    return { team: last.calls!, api: await sb.usage(growth), last };
  }

  test('one member\'s answer serves another through the other instance at 0 calls; one count for both', async () => {
    const [a, b] = await members(2);
    const byA = await fetch(`${gws[0].baseUrl}${PACK[1]}`, { headers: { authorization: `Bearer ${a}`, 'cache-control': 'max-age=600' } });
    expect(byA.status).toBe(200);
    await fetch(`${gws[1].baseUrl}${PACK[0]}`, { headers: { authorization: `Bearer ${b}` } });
    const before = await sb.usage(growth);
    const byB = await fetch(`${gws[1].baseUrl}${PACK[1]}`, { headers: { authorization: `Bearer ${b}`, 'cache-control': 'max-age=600' } });
    expect(byB.headers.get('cache-status')).toBe('fin-gateway; hit');
    expect(await byB.text()).toBe(await byA.text());
    expect(await sb.usage(growth)).toBe(before);
    expect(Number(byB.headers.get('x-fin-team-calls'))).toBe(before);
    const { team, api } = await finalCounts(a);
    expect(team).toBe(api);
  });

  test('50 members at once through nginx and two instances: the team count is the API\'s exactly', async () => {
    const keys = await members(50);
    const started = Date.now();
    const answers = await Promise.all(
      keys.map(async (key) => {
        const got: Answer[] = [];
        for (const url of PACK) got.push(await client.get(key, url));
        return got;
      }),
    );
    const elapsed = Date.now() - started;
    const flat = answers.flat();
    expect(flat).toHaveLength(50 * PACK.length);
    expect(flat.filter((a) => a.status !== 200)).toEqual([]);
    expect(flat.every((a) => a.calls !== null && !a.uncertain)).toBe(true);
    const { team, api } = await finalCounts(keys[0]);
    expect(team).toBe(api);
    // Each member's lookup and its first call in each of the two areas (Reports, Accounting setup) go to
    // the API: 3 each. Past those, each URL goes at most once per instance (identical requests in flight
    // on an instance share one call).
    const naive = 50 * (PACK.length + 1);
    const hits = flat.filter((a) => a.cache === 'fin-gateway; hit').length;
    console.log(`load: ${flat.length} answers in ${elapsed} ms, ${api} calls counted by the API (naive ${naive}), ${hits} served from the team cache`);
    expect(api).toBeLessThanOrEqual(50 * 3 + PACK.length * gws.length);
    expect(hits).toBeGreaterThan(0);
    expect(elapsed).toBeLessThan(60_000);
  });

  test('Redis stopped and started mid-run: relaying goes on, nothing from the cache meanwhile, the uncertainty said, the count made whole', async () => {
    const keys = await members(10);
    const [revokedLater] = keys;
    const run = () =>
      Promise.all(
        keys.map(async (key) => {
          const got: Answer[] = [];
          for (const url of PACK.slice(0, 3)) got.push(await client.get(key, url));
          return got;
        }),
      );
    const before = [...(await run()), ...(await run())].flat();
    expect(before.every((a) => a.status === 200 && !a.uncertain)).toBe(true);
    expect(before.some((a) => a.cache === 'fin-gateway; hit')).toBe(true);

    await redis.stop();
    await sb.control('members', { key: revokedLater, permissions: { api_access: 'none' } });
    const during = (await run()).flat();
    const others = during.filter((a) => a.status !== 401);
    expect(during.filter((a) => a.status === 401)).toHaveLength(3);
    expect(others.every((a) => a.status === 200)).toBe(true);
    expect(during.filter((a) => a.cache === 'fin-gateway; hit')).toEqual([]);
    expect(others.every((a) => a.uncertain && a.calls !== null)).toBe(true);
    for (const g of gws) expect(g.logs()).toMatch(/shared store unreachable.*uncertain/);

    await redis.start();
    for (const g of gws) {
      for (let tries = 0; ; tries++) {
        const health = (await (await fetch(`${g.origin}/gateway/health`)).json()) as { store_reachable: boolean };
        if (health.store_reachable) break;
        if (tries > 50) throw new Error('the gateway did not find Redis again');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    // The key revoked during the outage: its proofs were dropped when Redis came back, so it gets the API's 401.
    expect((await client.get(revokedLater, PACK[1])).status).toBe(401);
    const after = (await run()).flat().filter((a) => a.status === 200);
    expect(after.length).toBe(27);
    expect(after.every((a) => a.uncertain)).toBe(true);
    const { team, api, last } = await finalCounts(keys[1]);
    expect(last.uncertain).toBe(true);
    expect(team).toBe(api);
  });
});
