import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// One folder per test run for the seeded template database. The template is seeded lazily by the first
// test file that starts a sandbox (test/support/sandbox.ts), so runs of pure unit tests seed nothing.
export default async function globalSetup(): Promise<void> {
  process.env.SANDBOX_TEMPLATE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'fin-sandbox-'));
}
