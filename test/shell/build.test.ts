// The production build's page and where its office.js comes from: webpack.config.js run as `npm run build`
// runs it, with the add-in's three entries swapped for an empty module (the bundles are not what is checked
// here, and compiling them takes half a minute), so the page template, the copies and the flags are the
// real ones.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const CDN = 'https://appsforoffice.microsoft.com/lib/1/hosted/office.js';
const PACKAGE_OFFICE_JS = path.join(path.dirname(require.resolve('@microsoft/office-js/package.json')), 'dist', 'office.js');

// webpack runs in a node process of its own: jest's pinned Date (test/support/pinnedClock.js) is not a class
// webpack's serializer can register.
const BUILD_SCRIPT = `
const [root, outDir, empty, envJson] = process.argv.slice(1);
const webpack = require(require.resolve('webpack', { paths: [root] }));
require(root + '/webpack.config.js')(JSON.parse(envJson), { mode: 'production' }).then((config) => {
  const compiler = webpack({
    ...config,
    context: root,
    entry: { functions: empty, commands: empty, taskpane: empty },
    output: { ...config.output, path: outDir },
    devtool: false,
    infrastructureLogging: { level: 'error' },
  });
  compiler.run((err, stats) => {
    if (err || stats.hasErrors()) {
      console.error(err ? err.stack : stats.toString('errors-only'));
      process.exitCode = 1;
    }
    compiler.close(() => undefined);
  });
}, (error) => {
  console.error(error.message);
  process.exitCode = 1;
});
`;

let workDir: string;
beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fin-build-'));
  fs.writeFileSync(path.join(workDir, 'empty.js'), 'export {};\n');
});
afterAll(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});

/** `npm run build -- <env>` into a folder of its own; resolves that folder, rejects with webpack's errors. */
function build(name: string, env: Record<string, string>): Promise<string> {
  const outDir = path.join(workDir, name);
  const child = spawn(process.execPath, ['-e', BUILD_SCRIPT, ROOT, outDir, path.join(workDir, 'empty.js'), JSON.stringify(env)], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(outDir) : reject(new Error(`webpack exited ${code}: ${stderr}`))));
  });
}

/** The src of every script tag in the page's <head>, in order. */
function headScripts(dir: string): string[] {
  const html = fs.readFileSync(path.join(dir, 'taskpane.html'), 'utf8');
  const head = /<head>([\s\S]*?)<\/head>/.exec(html)?.[1] ?? '';
  return [...head.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]);
}

describe('npm run build: where the page gets office.js', () => {
  it("by default the page loads office.js from Microsoft's CDN, first in <head>, and nothing is copied", async () => {
    const dir = await build('default', {});
    const scripts = headScripts(dir);
    expect(scripts[0]).toBe(CDN);
    expect(scripts.filter((s) => s.includes('office-js/'))).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'office-js'))).toBe(false);
  });

  it("--env officejs=local copies the npm package's office.js next to the page and loads that instead", async () => {
    const dir = await build('local', { officejs: 'local' });
    const scripts = headScripts(dir);
    expect(scripts[0]).toBe('office-js/office.js');
    expect(scripts).not.toContain(CDN);
    expect(fs.readFileSync(path.join(dir, 'office-js', 'office.js')).equals(fs.readFileSync(PACKAGE_OFFICE_JS))).toBe(true);
  }, 120_000);

  it('refuses an officejs value it does not know', async () => {
    await expect(build('unknown', { officejs: 'npm' })).rejects.toThrow(/expected "cdn" \(the default\) or "local"/);
  });
});

// Issue 13: the pages asked for a favicon that was not there (404).
describe('npm run build: the page icon', () => {
  it('public/favicon.ico is copied next to the page, which links it', async () => {
    const dir = await build('icon', {});
    expect(fs.readFileSync(path.join(dir, 'favicon.ico')).equals(fs.readFileSync(path.join(ROOT, 'public', 'favicon.ico')))).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'taskpane.html'), 'utf8')).toMatch(/<link rel="icon" href="favicon.ico"/);
  });
});
