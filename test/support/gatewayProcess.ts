// The team's gateway as `npm run gateway` runs it, in a process of its own, for tests that cannot host it in
// their own process: the pane's tests run in jsdom, whose Uint8Array is not Node's, and a server there would
// send its answers' bytes as JSON. The gateway says where it listens in its log line "gateway serving <url>".
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface GatewayProcess {
  /** http://127.0.0.1:<port>/api/v1 */
  baseUrl: string;
  close(): Promise<void>;
}

const ROOT = path.resolve(__dirname, '../..');

export async function startGatewayProcess(upstream: string, env: Record<string, string> = {}): Promise<GatewayProcess> {
  const child: ChildProcess = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join(ROOT, 'src/gateway/cli.ts')], {
    cwd: ROOT,
    env: { ...process.env, GATEWAY_UPSTREAM: upstream, GATEWAY_PORT: '0', GATEWAY_HOST: '127.0.0.1', GATEWAY_SECRET: 'test-secret-of-the-gateway-0123456789abcdef', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the gateway did not start within 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /gateway serving (http:\/\/[^"\s]+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the gateway stopped at start (exit ${code}):\n${output}`));
    });
  });
  return {
    baseUrl,
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
