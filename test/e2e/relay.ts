// nginx in front of a built page, as docs/deploying-for-a-team.md deploys the add-in: deploy/nginx/fin-addin.conf
// run as it is, only its placeholders replaced (a high loopback port, a self-signed certificate made here
// with openssl for localhost and 127.0.0.1, the built page's folder, the API's address). Everything nginx
// writes (pid, logs, temporary files) stays in a temporary folder of its own, and it runs as one process in
// the foreground, so closing it is one signal to the process started here.

import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './servers';

export const RELAY_CONFIG = path.join(ROOT, 'deploy', 'nginx', 'fin-addin.conf');
/** The same with the team's gateway behind /api/v1 (docs/deploying-for-a-team.md): an upstream block of instances. */
export const GATEWAY_RELAY_CONFIG = path.join(ROOT, 'deploy', 'nginx', 'fin-addin-gateway.conf');

export interface Relay {
  /** https://127.0.0.1:<port>, the page's origin. */
  origin: string;
  /** The certificate nginx serves (self-signed), for clients that check it. */
  certificate: string;
  close(): Promise<void>;
}

/** A port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * nginx: $NGINX, else on the PATH or in /usr/sbin (Debian's package puts it there, outside a user's PATH).
 * Throws, saying how to install it, when there is none.
 */
export function requireNginx(): string {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), '/usr/sbin', '/usr/local/sbin'];
  const found = process.env.NGINX ? [process.env.NGINX].find((file) => fs.existsSync(file)) : dirs.map((dir) => path.join(dir, 'nginx')).find((file) => fs.existsSync(file));
  if (found) return found;
  throw new Error(
    `${process.env.NGINX ? `NGINX=${process.env.NGINX} does not exist` : 'nginx is not installed'}: the relay journey serves the built page ` +
      'through it (deploy/nginx/fin-addin.conf). Install it with apt-get install -y nginx (.ci/run does on a fresh machine), or set NGINX=/path/to/nginx.',
  );
}

/** Each placeholder of the deployed file, and what it becomes here. Each must be found exactly once. */
function localise(conf: string, values: { port: number; cert: string; key: string; root: string; upstream: string } | { port: number; cert: string; key: string; root: string; gateways: string[] }): string {
  const api: [RegExp, string][] =
    'gateways' in values
      ? [[/^(\s*)server 127\.0\.0\.1:4020 (.*);\n\s*server 127\.0\.0\.1:4021 .*;$/m, values.gateways.map((g) => `$1server ${g} $2;`).join('\n')]]
      : [[/^(\s*)proxy_pass https:\/\/api\.example\.com;$/m, `$1proxy_pass ${values.upstream};`]];
  const changes: [RegExp, string][] = [
    [/^(\s*)listen 443 ssl;$/m, `$1listen 127.0.0.1:${values.port} ssl;`],
    [/^\s*listen \[::\]:443 ssl;\n/m, ''],
    [/^(\s*)server_name reports\.example\.com;$/m, '$1server_name localhost;'],
    [/^(\s*)ssl_certificate \/etc\/ssl\/fin-addin\/fullchain\.pem;$/m, `$1ssl_certificate ${values.cert};`],
    [/^(\s*)ssl_certificate_key \/etc\/ssl\/fin-addin\/privkey\.pem;$/m, `$1ssl_certificate_key ${values.key};`],
    [/^(\s*)root \/var\/www\/fin-addin;$/m, `$1root ${values.root};`],
    ...api,
  ];
  let out = conf;
  for (const [pattern, replacement] of changes) {
    const found = out.match(new RegExp(pattern.source, 'gm'))?.length ?? 0;
    if (found !== 1) throw new Error(`${path.relative(ROOT, 'gateways' in values ? GATEWAY_RELAY_CONFIG : RELAY_CONFIG)}: expected one line matching ${pattern} (the documented placeholder), found ${found}`);
    out = out.replace(pattern, replacement);
  }
  return out;
}

function waitForAnswer(origin: string, ca: string, child: ChildProcess, errors: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  return new Promise((resolve, reject) => {
    let exited = false;
    child.once('exit', (code, signal) => {
      exited = true;
      reject(new Error(`nginx stopped at start (${signal ?? `exit ${code}`}):\n${errors()}`));
    });
    const attempt = () => {
      if (exited) return;
      const req = https.get(`${origin}/`, { ca, servername: 'localhost' }, (res) => {
        res.resume();
        resolve();
      });
      req.on('error', () => {
        if (Date.now() > deadline) reject(new Error(`nginx did not answer at ${origin} within 15 s:\n${errors()}`));
        else setTimeout(attempt, 100);
      });
    };
    attempt();
  });
}

/**
 * nginx serving `siteDir` over https on a free loopback port and relaying /api/v1 to `upstream` (an origin),
 * or, given `gateways` (host:port of each instance), through the team's gateway (fin-addin-gateway.conf).
 */
export async function startRelay(options: { siteDir: string; upstream: string } | { siteDir: string; gateways: string[] }): Promise<Relay> {
  const nginx = requireNginx();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fin-e2e-nginx-'));
  const cert = path.join(dir, 'localhost.crt');
  const key = path.join(dir, 'localhost.key');
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', key, '-out', cert],
      { stdio: 'pipe' },
    );
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`openssl could not make the relay's certificate (apt-get install -y openssl): ${(error as Error).message}`);
  }
  const port = await freePort();
  const root = path.resolve(options.siteDir);
  const site =
    'gateways' in options
      ? localise(fs.readFileSync(GATEWAY_RELAY_CONFIG, 'utf8'), { port, cert, key, root, gateways: options.gateways })
      : localise(fs.readFileSync(RELAY_CONFIG, 'utf8'), { port, cert, key, root, upstream: options.upstream });
  fs.writeFileSync(path.join(dir, 'fin-addin.conf'), site);
  const temp = path.join(dir, 'temp');
  fs.mkdirSync(temp);
  const errorLog = path.join(dir, 'error.log');
  // What /etc/nginx/nginx.conf gives a conf.d file on a server, reduced to this test's needs: one process
  // in the foreground (no workers, so no switch to another user who could not read the temporary folder).
  const main = `
daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${errorLog} warn;
events { worker_connections 1024; }
http {
    types {
        text/html html;
        text/javascript js;
        application/json json map;
        text/css css;
        image/x-icon ico;
        image/png png;
        image/svg+xml svg;
        application/xml xml;
    }
    default_type application/octet-stream;
    access_log ${dir}/access.log;
    client_body_temp_path ${temp}/client_body;
    proxy_temp_path ${temp}/proxy;
    fastcgi_temp_path ${temp}/fastcgi;
    uwsgi_temp_path ${temp}/uwsgi;
    scgi_temp_path ${temp}/scgi;
    include ${dir}/fin-addin.conf;
}
`;
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(conf, main);
  // -e: the error log before the configuration is read (else the compiled-in /var/log/nginx/error.log).
  const child = spawn(nginx, ['-p', dir, '-c', conf, '-e', errorLog], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const errors = () => `${stderr}${fs.existsSync(errorLog) ? fs.readFileSync(errorLog, 'utf8') : ''}`.trim();
  const certificate = fs.readFileSync(cert, 'utf8');
  const origin = `https://127.0.0.1:${port}`;
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForAnswer(origin, certificate, child, errors);
  } catch (error) {
    await close();
    throw error;
  }
  return { origin, certificate, close };
}
