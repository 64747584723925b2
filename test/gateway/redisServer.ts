// A redis-server of a test's own: a free loopback port, a temporary folder for its files (appendonly, as
// docs/deploying-for-a-team.md advises, so a restart keeps the counts), stopped and started again on the
// same port for the fault test. Only with GATEWAY_REDIS_TESTS=1 and redis-server on the PATH (`npm run
// test:team`; .ci/run installs it): `npm test` needs only Node.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const redisTestsWanted = process.env.GATEWAY_REDIS_TESTS === '1';
export const redisServerFound = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
/** describe, or describe.skip with the reason in its name when the Redis tests are not asked for or cannot run. */
export const describeWithRedis = (name: string, fn: () => void): void => {
  if (redisTestsWanted && !redisServerFound) throw new Error('GATEWAY_REDIS_TESTS=1 but redis-server is not on the PATH (apt-get install -y redis-server).');
  if (redisTestsWanted) describe(name, fn);
  else describe.skip(`${name} (GATEWAY_REDIS_TESTS=1 and redis-server: npm run test:team)`, fn);
};

export interface TestRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.write('PING\r\n');
      socket.once('data', (d) => {
        socket.destroy();
        resolve(d.toString().startsWith('+PONG'));
      });
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startRedis(): Promise<TestRedis> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wt-gws-redis-'));
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always'], { stdio: 'ignore' });
    for (let waited = 0; waited < 10_000; waited += 50) {
      if (await answers(port)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`redis-server did not answer on port ${port}`);
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGTERM');
    await exited;
    child = null;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    async close() {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
