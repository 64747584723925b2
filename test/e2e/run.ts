// Browser tests: the whole add-in (its real task pane and FIN functions, in the workbench) driven in
// headless Chromium as a user would, against a fresh sandbox.
//
//   npx ts-node --transpile-only test/e2e/run.ts          (npm run test:e2e)
//
// Steps: build the workbench with webpack into a temporary folder; start a fresh sandbox (new database,
// seeded) and a static http server for the page, each on a free loopback port; launch Debian's Chromium
// through playwright-core; run the journeys (test/e2e/journeys.ts); print a summary; exit 1 on a failure.
// The first journey that needs them also starts a second sandbox that sends no CORS headers, and the relay:
// the production build of the workbench with the API at /api/v1, served over https by nginx
// (deploy/nginx/fin-addin.conf, test/e2e/relay.ts), which relays /api/v1 to that sandbox. nginx must be
// installed (apt-get install -y nginx; .ci/run does): without it those journeys fail and say so. The team
// journey (issue 38) puts the team's gateway between nginx and a sandbox of its own.
//
// Environment: CHROMIUM (default /usr/bin/chromium), E2E_MODE=production (default development: a faster
// build), E2E_GREP=<text> (only journeys whose name contains it), E2E_KEEP=1 (keep the built page and
// print where), E2E_HEADED=1 (show the browser, where a display exists).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { runJourneys } from './harness';
import { journeys, type RelayWorld, type TeamWorld, type World } from './journeys';
import { startGateway, type RunningGateway } from '../../src/gateway/app';
import { configFromEnv } from '../../src/gateway/config';
import { waitForPane } from './pageObjects';
import { teamJourney } from './teamJourney';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { requireNginx, startRelay, type Relay } from './relay';
import { buildWorkbench, serveStatic, type StaticServer } from './servers';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
/**
 * The team journey's access window: longer than the default 300 s, which two board packs on a loaded 2-core
 * machine can outlast (a proof older than the window is proven again, at a call, as it would be in use).
 */
const TEAM_ACCESS_WINDOW_SECONDS = 900;
// The flags that work as root on these machines (toolchain notes, "Browsers").
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

async function main(): Promise<number> {
  const started = Date.now();
  if (!fs.existsSync(CHROMIUM)) {
    console.error(`e2e: no Chromium at ${CHROMIUM}. Install it (apt-get install -y chromium) or set CHROMIUM=/path/to/chrome.`);
    return 2;
  }
  const mode = process.env.E2E_MODE === 'production' ? 'production' : 'development';
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fin-e2e-workbench-'));
  let sandbox: TestSandbox | null = null;
  let site: StaticServer | null = null;
  let browser: Browser | null = null;
  // Started by the first journey that asks for them (World.noCorsSandbox, World.relay).
  let relayDir: string | null = null;
  let noCors: Promise<TestSandbox> | null = null;
  let relay: Promise<Relay> | null = null;
  let relaySite: Promise<string> | null = null;
  let team: Promise<{ relay: Relay; gateway: RunningGateway; sandbox: TestSandbox }> | null = null;
  const noCorsSandbox = () => (noCors ??= startSandbox({ seed: 'fresh', cors: false }));
  /** The production build with the API at /api/v1, for nginx to serve (built once). */
  const builtRelaySite = () =>
    (relaySite ??= (async () => {
      requireNginx(); // before a minute of building
      console.log('      e2e: building the workbench for the relay (webpack, production, --env api=/api/v1)…');
      relayDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fin-e2e-relay-site-'));
      const build = await buildWorkbench({ outDir: relayDir, mode: 'production', api: '/api/v1' });
      console.log(`      e2e: relay page built in ${seconds(build.ms)}`);
      return relayDir;
    })());
  const relayWorld = async (): Promise<RelayWorld> => {
    relay ??= (async () => {
      const [site, sb] = await Promise.all([builtRelaySite(), noCorsSandbox()]);
      const started = await startRelay({ siteDir: site, upstream: new URL(sb.baseUrl).origin });
      console.log(`      e2e: nginx at ${started.origin}, relaying /api/v1 to ${sb.baseUrl}`);
      return started;
    })();
    const [started, sb] = await Promise.all([relay, noCorsSandbox()]);
    return { origin: started.origin, sandbox: sb };
  };
  // nginx -> the team's gateway (in this process, its state in memory) -> a sandbox of its own, so every call
  // of its companies goes through the gateway and the gateway's count can equal the sandbox's.
  const teamWorld = async (): Promise<TeamWorld> => {
    team ??= (async () => {
      const [site, sb] = await Promise.all([builtRelaySite(), startSandbox({ seed: 'fresh', cors: false })]);
      const gateway = await startGateway({
        config: configFromEnv({ GATEWAY_UPSTREAM: sb.baseUrl, GATEWAY_PORT: '0', GATEWAY_ACCESS_WINDOW_SECONDS: String(TEAM_ACCESS_WINDOW_SECONDS) }),
        logLevel: 'warn',
      });
      // As deployed for a team: deploy/nginx/fin-addin-gateway.conf, its upstream block naming this instance.
      const started = await startRelay({ siteDir: site, gateways: [new URL(gateway.origin).host] });
      console.log(`      e2e: nginx at ${started.origin} -> gateway ${gateway.baseUrl} -> sandbox ${sb.baseUrl}`);
      return { relay: started, gateway, sandbox: sb };
    })();
    const { relay: started, sandbox } = await team;
    return { origin: started.origin, sandbox, accessWindowSeconds: TEAM_ACCESS_WINDOW_SECONDS };
  };
  const cleanup = async () => {
    await browser?.close().catch(() => undefined);
    await site?.close().catch(() => undefined);
    await sandbox?.close().catch(() => undefined);
    await relay?.then((r) => r.close()).catch(() => undefined);
    await noCors?.then((sb) => sb.close()).catch(() => undefined);
    await team
      ?.then(async (t) => {
        await t.relay.close();
        await t.gateway.close();
        await t.sandbox.close();
      })
      .catch(() => undefined);
    if (process.env.E2E_KEEP) console.log(`e2e: the built workbench stays in ${outDir}${relayDir ? `, the relay's in ${relayDir}` : ''}`);
    else for (const dir of [outDir, relayDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => {
    void cleanup().then(() => process.exit(130));
  });

  try {
    console.log(`e2e: building the workbench (webpack, ${mode})…`);
    const [build, sb] = await Promise.all([buildWorkbench({ outDir, mode }), startSandbox({ seed: 'fresh' })]);
    sandbox = sb;
    console.log(`e2e: built in ${seconds(build.ms)}; sandbox seeded in ${seconds(sb.seedMs)} at ${sb.baseUrl}`);
    site = await serveStatic(outDir);
    const control = (await (await fetch(`${sb.controlUrl}/control`)).json()) as { today: string };
    const world: World = { origin: site.origin, sandbox: sb, today: control.today, noCorsSandbox, relay: relayWorld, team: teamWorld };

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: !process.env.E2E_HEADED,
      // Playwright starts Chromium on a fresh temporary profile (the fresh --user-data-dir) and adds --headless.
      args: CHROMIUM_ARGS,
    });
    console.log(`e2e: Chromium ${browser.version()}; page ${site.origin}/workbench.html; sandbox today ${world.today}`);

    const page = `${site.origin}/workbench.html?sandbox=${encodeURIComponent(sb.baseUrl)}`;
    const results = await runJourneys([...journeys(world), teamJourney(world)], {
      browser,
      open: async (p) => {
        await p.goto(page);
        await waitForPane(p);
      },
      attempts: 2,
      timeoutMs: 240_000,
      grep: process.env.E2E_GREP,
    });

    const passed = results.filter((r) => r.status === 'passed');
    const failed = results.filter((r) => r.status === 'failed');
    const skipped = results.filter((r) => r.status === 'skipped');
    const journeysMs = results.reduce((n, r) => n + r.ms, 0);
    console.log(
      `\ne2e: ${passed.length} passed, ${failed.length} failed, ${skipped.length} skipped; journeys ${seconds(journeysMs)}, everything ${seconds(Date.now() - started)}`,
    );
    for (const s of skipped) console.log(`  skipped: ${s.name} — ${s.reason}`);
    for (const f of failed) console.log(`  FAILED: ${f.name} at "${f.step}" (screenshot ${f.screenshot})`);
    return failed.length > 0 || results.length === 0 ? 1 : 0;
  } finally {
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`e2e: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
