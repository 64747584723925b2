// The team's gateway (issue 38): what it adds to each request, and what a team of five costs.
//   latency  the same request sequence direct to the sandbox and through the gateway (no-cache: every one
//            relayed and counted), per store; added = gateway - direct at the median and at p99; and a
//            team-cache hit for comparison.
//   team     five members refresh the same board-pack statements (FY last year: 12 monthly income
//            statements, 4 quarter-end balance sheets, the year's cash flow, categories, departments,
//            company) asking max-age as the add-in does on first reads: calls from the sandbox counter.
import { spawnSync } from 'node:child_process';
import { startGateway, type RunningGateway } from '../src/gateway/app';
import { configFromEnv } from '../src/gateway/config';
import { startRedis, type TestRedis } from '../test/gateway/redisServer';
import { startSandbox, type TestSandbox } from '../test/support/sandbox';
import { median } from './stats';

const REQUESTS = 400;

export interface LatencyFigures {
  store: 'memory' | 'redis';
  requests: number;
  directMedianMs: number;
  directP99Ms: number;
  gatewayMedianMs: number;
  gatewayP99Ms: number;
  addedMedianMs: number;
  addedP99Ms: number;
  hitMedianMs: number;
  hitP99Ms: number;
}

export interface TeamFigures {
  requestsPerMember: number;
  oneMemberCalls: number;
  fiveMembersCalls: number;
  /** Each member after the first: its own GET /company and first call in each area (its proofs of access). */
  perExtraMember: number;
  withoutGateway: number;
}

export interface GatewayFigures {
  latency: LatencyFigures[];
  team: TeamFigures;
}

function p99(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(0.99 * s.length) - 1)];
}

async function timed(url: string, key: string, cacheControl: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}`, 'cache-control': cacheControl } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
  return performance.now() - t0;
}

function gatewayOn(sb: TestSandbox, redisUrl?: string): Promise<RunningGateway> {
  const config = configFromEnv({ GATEWAY_UPSTREAM: sb.baseUrl, GATEWAY_PORT: '0', GATEWAY_SECRET: 'bench-secret-of-the-gateway-0123456789abcdef', ...(redisUrl ? { GATEWAY_REDIS_URL: redisUrl } : {}) });
  return startGateway({ config, logLevel: 'warn' });
}

async function latency(sb: TestSandbox, store: 'memory' | 'redis', redisUrl?: string): Promise<LatencyFigures> {
  const gw = await gatewayOn(sb, redisUrl);
  const key = sb.keys['growth-admin'];
  const path = '/categories';
  try {
    const direct: number[] = [];
    const through: number[] = [];
    const hits: number[] = [];
    for (let i = 0; i < 20; i++) {
      await timed(`${sb.baseUrl}${path}`, key, 'no-cache');
      await timed(`${gw.baseUrl}${path}`, key, 'no-cache');
    }
    // Interleaved, so that both see the same machine load.
    for (let i = 0; i < REQUESTS; i++) {
      direct.push(await timed(`${sb.baseUrl}${path}`, key, 'no-cache'));
      through.push(await timed(`${gw.baseUrl}${path}`, key, 'no-cache'));
      hits.push(await timed(`${gw.baseUrl}${path}`, key, 'max-age=600'));
    }
    return {
      store,
      requests: REQUESTS,
      directMedianMs: median(direct),
      directP99Ms: p99(direct),
      gatewayMedianMs: median(through),
      gatewayP99Ms: p99(through),
      addedMedianMs: median(through) - median(direct),
      addedP99Ms: p99(through) - p99(direct),
      hitMedianMs: median(hits),
      hitP99Ms: p99(hits),
    };
  } finally {
    await gw.close();
  }
}

function packPaths(year: number): string[] {
  const paths = ['/company', '/categories', '/departments'];
  for (let m = 1; m <= 12; m++) {
    const last = new Date(Date.UTC(year, m, 0)).getUTCDate();
    const mm = String(m).padStart(2, '0');
    paths.push(`/reports/income_statement?start_date=${year}-${mm}-01&end_date=${year}-${mm}-${last}`);
  }
  for (const end of ['03-31', '06-30', '09-30', '12-31']) paths.push(`/reports/balance_sheet?date=${year}-${end}`);
  paths.push(`/reports/cash_flow?start_date=${year}-01-01&end_date=${year}-12-31`);
  return paths;
}

async function team(sb: TestSandbox): Promise<TeamFigures> {
  const company = sb.companies['growth-admin'];
  const keys = ((await sb.control('keys', { company_id: company, template: 'read_only', count: 5 })) as { keys: string[] }).keys;
  const paths = packPaths(new Date().getUTCFullYear() - 1);
  const refresh = async (base: string, key: string) => {
    for (const p of paths) await timed(`${base}${p}`, key, 'max-age=3600');
  };
  const counted = async (run: () => Promise<unknown>) => {
    const before = await sb.usage(company);
    await run();
    return (await sb.usage(company)) - before;
  };
  const gw = await gatewayOn(sb);
  try {
    const oneMemberCalls = await counted(() => refresh(gw.baseUrl, keys[0]));
    const others = await counted(async () => {
      for (const key of keys.slice(1)) await refresh(gw.baseUrl, key);
    });
    const withoutGateway = await counted(async () => {
      for (const key of keys) await refresh(sb.baseUrl, key);
    });
    return { requestsPerMember: paths.length, oneMemberCalls, fiveMembersCalls: oneMemberCalls + others, perExtraMember: others / 4, withoutGateway };
  } finally {
    await gw.close();
  }
}

export async function gatewayBench(): Promise<GatewayFigures> {
  const sb = await startSandbox({ seed: 'fresh', transactions: Number(process.env.BENCH_PACK_TRANSACTIONS ?? 20000) });
  let redis: TestRedis | undefined;
  try {
    const figures: LatencyFigures[] = [await latency(sb, 'memory')];
    if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0) {
      redis = await startRedis();
      figures.push(await latency(sb, 'redis', redis.url));
    }
    return { latency: figures, team: await team(sb) };
  } finally {
    await redis?.close();
    await sb.close();
  }
}
