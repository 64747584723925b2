#!/usr/bin/env node
// `npm stop`: stops what `npm start` started (recorded in .sandbox/run.json: pids, the first being
// `npm start` itself, and whether it sideloaded the add-in into Excel).
// `npm start` is asked first, so it stops its children and unregisters the add-in itself; whatever is
// still running after that (or if it was killed outright, as on Windows) is stopped here.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const runFile = path.join(root, '.sandbox', 'run.json');

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

function stopPid(pid) {
  try {
    process.kill(pid, 'SIGTERM');
    console.log(`stop: stopped process ${pid}`);
  } catch {
    // already gone
  }
}

async function waitGone(pid, ms) {
  const deadline = Date.now() + ms;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  return !alive(pid);
}

async function main() {
  if (!fs.existsSync(runFile)) {
    console.log('stop: nothing to stop (npm start is not running).');
    return;
  }
  const { pids = [], sideloaded = false, manifest = 'manifest.xml' } = JSON.parse(fs.readFileSync(runFile, 'utf8'));
  const [starter, ...children] = pids;

  let starterCleanedUp = false;
  if (starter && alive(starter)) {
    stopPid(starter);
    // It removes run.json when it has stopped its children and unregistered the add-in.
    starterCleanedUp = (await waitGone(starter, 60000)) && !fs.existsSync(runFile);
  }
  for (const pid of children.slice().reverse()) {
    if (starterCleanedUp) await waitGone(pid, 10000); // already asked to stop by npm start
    if (alive(pid)) stopPid(pid);
  }
  // Wait until they are gone, so that a new `npm start` finds its ports free.
  for (const pid of children) {
    if (!(await waitGone(pid, 15000))) {
      console.log(`stop: process ${pid} did not stop; killing it.`);
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
  }

  if (sideloaded && !starterCleanedUp) {
    const cli = require.resolve('office-addin-debugging/cli.js');
    const res = spawnSync(process.execPath, [cli, 'stop', manifest], { cwd: root, encoding: 'utf8', timeout: 120000 });
    const output = `${res.stdout || ''}${res.stderr || ''}`.trim();
    if (output) console.log(output.replace(/^/gm, 'stop: office-addin-debugging: '));
  }
  fs.rmSync(runFile, { force: true });
}

main().catch((e) => {
  console.error(`stop: ${e.message}`);
  process.exit(1);
});
