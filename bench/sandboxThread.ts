// A sandbox served from a worker thread, for figures about the add-in's own main thread: the sandbox stands
// for the remote API, and in the bench's process its request handling (SQLite over 20,000 transactions)
// would otherwise run on the thread the bench watches and count as the add-in's work. The worker is this
// same file: started with workerData, it serves and reports; closed with a message.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { startSandbox, type SandboxOptions, type TestSandbox } from '../test/support/sandbox';

/** What the bench needs of a sandbox in another thread (everything it asks goes over HTTP). */
export type ThreadSandbox = Pick<TestSandbox, 'baseUrl' | 'controlUrl' | 'keys' | 'companies' | 'usage' | 'close'>;

interface Started {
  baseUrl: string;
  controlUrl: string;
  keys: Record<string, string>;
  companies: Record<string, string>;
}

/** Starts a sandbox (startSandbox's options) in a worker thread. */
export function startSandboxThread(options: SandboxOptions): Promise<ThreadSandbox> {
  const worker = new Worker(__filename, { workerData: { sandboxThread: options }, execArgv: ['--require', 'ts-node/register/transpile-only'] });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (started: Started) => {
      resolve({
        ...started,
        async usage(companyId: string) {
          const res = await fetch(`${started.controlUrl}/usage?company_id=${encodeURIComponent(companyId)}`);
          return ((await res.json()) as { count: number }).count;
        },
        async close() {
          const closed = new Promise((done) => worker.once('exit', done));
          worker.postMessage('close');
          await closed;
        },
      });
    });
  });
}

const asked = (workerData as { sandboxThread?: SandboxOptions } | null)?.sandboxThread;
if (!isMainThread && parentPort && asked) {
  const port = parentPort;
  void startSandbox(asked).then((sb) => {
    const started: Started = { baseUrl: sb.baseUrl, controlUrl: sb.controlUrl, keys: sb.keys, companies: sb.companies };
    port.on('message', (message) => {
      // process.exit in a worker ends the worker only.
      if (message === 'close') void sb.close().then(() => process.exit(0));
    });
    port.postMessage(started);
  });
}
