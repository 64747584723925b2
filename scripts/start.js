#!/usr/bin/env node
// `npm start`: runs the add-in's local world.
//   1. the sandbox API (seeding the demo companies on first run) on http://127.0.0.1:4010, and over https on
//      https://localhost:4011 with the dev server's certificate; on macOS the add-in is pointed at the https
//      one, because the Mac's webview (and Safari) block http calls from the add-in's https page;
//   2. the add-in's webpack dev server on https://localhost:3000 (taskpane.html, functions, commands);
//   3. where Excel desktop exists (Windows, macOS), sideloads manifest.xml into it with office-addin-debugging;
//      elsewhere (Linux) points to the workbench (https://localhost:3000/workbench.html: the real task pane and
//      FIN functions on an in-memory workbook, no Excel needed) and prints how to sideload into Excel on the web.
// It stays in the foreground; `npm stop` (or Ctrl+C) stops what it started. `npm start -- --no-sideload` skips 3.
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const https = require('node:https');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const runFile = path.join(root, '.sandbox', 'run.json');
const port = Number(process.env.SANDBOX_PORT || 4010);
const base = `http://127.0.0.1:${port}`;
const httpsPort = port + 1;
const secureBase = `https://localhost:${httpsPort}`;
// Where the pane and the workbench find the demo company: https where the webview insists on it.
const HTTPS_ONLY_WEBVIEW = ['darwin'];
const paneSandbox = HTTPS_ONLY_WEBVIEW.includes(process.platform) ? `${secureBase}/api/v1` : `${base}/api/v1`;
const devPage = 'https://localhost:3000/taskpane.html';
// The workbench talks to this sandbox; the default address needs no parameter.
const workbenchPage = 'https://localhost:3000/workbench.html';
const manifest = 'manifest.xml';
const sideloadWanted = !process.argv.includes('--no-sideload');
const DESKTOP_EXCEL = ['win32', 'darwin'];

function startChild(name, command, args) {
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env: process.env });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`start: ${name} exited (${signal || code}); stopping.`);
      shutdown(1);
    }
  });
  return child;
}

async function waitFor(check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (stopping) return false;
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

async function sandboxHealthy() {
  try {
    return (await fetch(`${base}/__sandbox/health`)).ok;
  } catch {
    return false; // not up yet
  }
}

/** GET over https without verifying the certificate (the dev certificate may be self-signed or untrusted). */
function pageAnswers(url) {
  return new Promise((resolve) => {
    const req = https.get(url, { rejectUnauthorized: false, timeout: 5000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

/** office-addin-debugging's CLI with its output captured: it exits 0 even when it fails. */
function officeAddinDebugging(args) {
  const cli = require.resolve('office-addin-debugging/cli.js');
  const res = spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: 'utf8', timeout: 180000 });
  const output = `${res.stdout || ''}${res.stderr || ''}${res.error ? `\n${res.error.message}` : ''}`.trim();
  // Success is its last line ("Debugging started." or "Started."); failures print "Unable to ...".
  const ok = !res.error && /^(Debugging started|Started)\.\r?$/m.test(output) && !/Unable to start debugging/i.test(output);
  return { output, ok };
}

let stopping = false;
const children = [];
const run = { pids: [process.pid], sideloaded: false, manifest };
function saveRun() {
  fs.writeFileSync(runFile, JSON.stringify(run));
}

function shutdown(code) {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  if (run.sideloaded) {
    const { output } = officeAddinDebugging(['stop', manifest]);
    if (output) console.log(output);
  }
  fs.rmSync(runFile, { force: true });
  process.exit(code);
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

function webSideloadSteps() {
  const { findUsableCertificate } = require('./dev-certs');
  const cert = findUsableCertificate();
  const trust = cert
    ? `or import ${cert.caPath}\n     as a certificate authority in the browser's settings`
    : "or import the dev server's certificate in the browser's settings";
  return `To use the add-in in Excel on the web (needs a Microsoft 365 or Microsoft account, and internet):
  1. Trust the dev server first: in the browser you will use for Excel, open
       ${devPage}
     and accept the certificate warning (${trust}).
     Excel on the web loads the add-in from there and shows an empty pane if the browser refuses it.
  2. Open a workbook in Excel on the web (https://www.office.com).
  3. Home > Add-ins > More Add-ins (older ribbons: Insert > Add-ins > Office Add-ins), then
     My Add-ins > Upload My Add-in, and choose ${path.join(root, manifest)}.
  4. The Home tab gets a "Financial Reporting" group (Open, Refresh all); type =FIN.VERSION() in a cell.
  The upload lasts until the browser's cache is cleared; upload again after changing manifest.xml.`;
}

function sideload() {
  if (!sideloadWanted) return 'Not sideloaded (--no-sideload).';
  if (!DESKTOP_EXCEL.includes(process.platform)) {
    return `This is ${process.platform}: Excel desktop does not run here, so nothing was sideloaded
(office-addin-debugging sideloads into Excel on Windows and macOS only).
Try the add-in right here instead, in the workbench (no Excel, no sign-in, no internet):
  ${workbenchPage}
  The real task pane and FIN functions on an in-memory workbook, against this sandbox: press
  "Try the demo company", insert statements, type =FIN.TOTAL("Revenue","YTD") in the formula box,
  pull transactions and edit them in the grid. Accept the certificate warning the first time.
${webSideloadSteps()}`;
  }
  console.log(`start: sideloading ${manifest} into Excel (office-addin-debugging start ${manifest} desktop)...`);
  const { output, ok } = officeAddinDebugging(['start', manifest, 'desktop']);
  if (output) console.log(output.replace(/^/gm, '  office-addin-debugging: '));
  if (ok) {
    run.sideloaded = true;
    saveRun();
    return 'Sideloaded into Excel: look for the "Financial Reporting" group on the Home tab. `npm stop` removes it.';
  }
  return `start: sideloading into Excel did NOT work (see office-addin-debugging's output above).
${webSideloadSteps()}`;
}

async function main() {
  fs.mkdirSync(path.dirname(runFile), { recursive: true });
  const tsNode = require.resolve('ts-node/dist/bin.js');
  const sandbox = startChild('sandbox', process.execPath, [
    tsNode,
    '--transpile-only',
    'src/sandbox/cli.ts',
    '--port',
    String(port),
    '--https',
    '--https-port',
    String(httpsPort),
  ]);
  children.push(sandbox);
  run.pids.push(sandbox.pid);
  saveRun();

  if (!(await waitFor(sandboxHealthy, 180000))) {
    console.error(`start: the sandbox did not answer on ${base} within 3 minutes.`);
    shutdown(1);
    return;
  }
  console.log(`start: the sandbox API is up: ${base}/api/v1 and ${secureBase}/api/v1`);

  const webpackCli = require.resolve('webpack-cli/bin/cli.js');
  const devServer = startChild('dev server', process.execPath, [webpackCli, 'serve', '--mode', 'development', '--env', `sandbox=${paneSandbox}`]);
  children.push(devServer);
  run.pids.push(devServer.pid);
  saveRun();
  if (!(await waitFor(() => pageAnswers(devPage), 180000))) {
    console.error(`start: the dev server did not serve ${devPage} within 3 minutes.`);
    shutdown(1);
    return;
  }

  const sideloadResult = sideload();
  console.log(`
The sandbox API is up: ${base}/api/v1 (and over https: ${secureBase}/api/v1)
  The add-in and the workbench use ${paneSandbox}
  Demo keys (labelled):   npm run -s sandbox -- --list-keys
  Try it:                 curl -H "Authorization: Bearer <growth-admin key>" ${base}/api/v1/company
The add-in is served at ${devPage}
  Manifest:               ${path.join(root, manifest)}
  Workbench (no Excel):   ${workbenchPage}
${sideloadResult}
Stop with Ctrl+C or \`npm stop\`.`);
}

main().catch((e) => {
  console.error(`start: ${e.message}`);
  shutdown(1);
});
