// What the browser journeys run against: the workbench built by webpack into a folder of its own and a
// static http server for the built page on a free loopback port (the sandbox is test/support/sandbox.ts's,
// freshly seeded, on another). Page and API are both http on loopback, which the API client allows; the
// sandbox answers the page's cross-origin calls with CORS for loopback origins.

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');

export interface BuildOptions {
  outDir: string;
  mode: 'development' | 'production';
  /** The API base URL built in as the Connect screen's default (`--env api=`), e.g. the relay path /api/v1. */
  api?: string;
}

/** Builds the workbench alone (webpack.config.js's workbench compilation) into `outDir`. */
export async function buildWorkbench(options: BuildOptions): Promise<{ ms: number }> {
  // webpack.config.js resolves ./src/... against the working directory, as webpack-cli would run it.
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const webpack = require('webpack') as typeof import('webpack');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { workbenchConfig, buildDefines } = require(path.join(ROOT, 'webpack.config.js')) as {
      workbenchConfig: (o: { mode: string; dev: boolean; outputPath: string; defines?: object }) => import('webpack').Configuration;
      buildDefines: (o: { api?: string }) => object;
    };
    fs.rmSync(options.outDir, { recursive: true, force: true });
    const config = workbenchConfig({
      mode: options.mode,
      dev: options.mode === 'development',
      outputPath: options.outDir,
      ...(options.api ? { defines: buildDefines({ api: options.api }) } : {}),
    });
    const t0 = Date.now();
    await new Promise<void>((resolve, reject) => {
      webpack(config, (err, stats) => {
        if (err) return reject(err);
        if (!stats || stats.hasErrors()) return reject(new Error(`webpack: the workbench did not build:\n${stats?.toString('errors-only')}`));
        resolve();
      });
    });
    return { ms: Date.now() - t0 };
  } finally {
    process.chdir(cwd);
  }
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

export interface StaticServer {
  origin: string;
  close(): Promise<void>;
}

/** Serves a folder over http on 127.0.0.1 (a free port). GET and HEAD only, nothing outside the folder. */
export async function serveStatic(dir: string): Promise<StaticServer> {
  const root = path.resolve(dir);
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = path.resolve(root, `.${pathname.endsWith('/') ? `${pathname}index.html` : pathname}`);
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, {
      'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'Cache-Control': 'no-cache',
      'Content-Length': fs.statSync(file).size,
    });
    if (req.method === 'HEAD') res.end();
    else fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
