// `npm run sandbox -- [--port N] [--https] [--https-port N] [--no-cors] [--db FILE] [--reset] [--transactions N] [--dialect D] [--list-keys]`
import { parseArgs } from 'node:util';
import { getHttpsOptions } from '../../scripts/dev-certs';
import { getMeta } from './db/open';
import { DIALECTS, type Dialect } from './http/dialect';
import { listRoster, SEED_VERSION } from './seed';
import { DEFAULT_DB, DEFAULT_HTTPS_PORT, DEFAULT_PORT, openSeeded, serveSandbox } from './server';

const USAGE = `Usage: npm run sandbox -- [options]
  --port N          port to serve on (default ${DEFAULT_PORT}; 0 picks a free one)
  --https           also serve the API over https on loopback, with the dev server's certificate
                    (the Mac's webview blocks http calls from the add-in's https page; npm start uses it)
  --https-port N    port for --https (default: --port + 1, so ${DEFAULT_HTTPS_PORT})
  --no-cors         send no CORS headers to any page, as a real API may not: the add-in's page then
                    reaches it only through a relay on its own address (docs/deploying-for-a-team.md)
  --db FILE         database file (default ${DEFAULT_DB}); an existing one is reused
  --reset           delete the database and seed it again
  --transactions N  transactions of the Growth demo company (Northwind) when seeding (default 20000)
  --dialect D       how the spec's open points are answered: standard (docs/api-decisions.md, the
                    default) or variant (other names and shapes, equally consistent with the spec)
  --list-keys       print the seeded keys as JSON and exit (no server)`;

function fail(message: string): never {
  console.error(`sandbox: ${message}\n\n${USAGE}`);
  process.exit(2);
}

async function main(): Promise<void> {
  let args;
  try {
    args = parseArgs({
      options: {
        port: { type: 'string' },
        https: { type: 'boolean' },
        'https-port': { type: 'string' },
        'no-cors': { type: 'boolean' },
        db: { type: 'string' },
        reset: { type: 'boolean' },
        transactions: { type: 'string' },
        dialect: { type: 'string' },
        'list-keys': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values;
  } catch (e) {
    fail((e as Error).message);
  }
  if (args.help) {
    console.log(USAGE);
    return;
  }
  const port = args.port === undefined ? DEFAULT_PORT : Number(args.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number, got '${args.port}'.`);
  const httpsPort = args['https-port'] === undefined ? (port === 0 ? 0 : port + 1) : Number(args['https-port']);
  if (!Number.isInteger(httpsPort) || httpsPort < 0 || httpsPort > 65535) fail(`--https-port must be a port number, got '${args['https-port']}'.`);
  if (args['https-port'] !== undefined && !args.https) fail('--https-port needs --https.');
  const transactions = args.transactions === undefined ? undefined : Number(args.transactions);
  if (transactions !== undefined && (!Number.isInteger(transactions) || transactions < 100 || transactions > 2_000_000)) {
    fail(`--transactions must be a whole number from 100 to 2000000, got '${args.transactions}'.`);
  }
  const dialect = (args.dialect ?? 'standard') as Dialect;
  if (!DIALECTS.includes(dialect)) fail(`--dialect must be one of ${DIALECTS.join(', ')}, got '${args.dialect}'.`);
  const file = args.db ?? DEFAULT_DB;

  const { db, seeded, seedMs } = openSeeded(file, { reset: args.reset, transactions });
  const log = args['list-keys'] ? console.error : console.log;
  if (seeded) log(`sandbox: seeded ${file} (${getMeta(db, 'seeded_transactions')} Growth transactions) in ${(seedMs / 1000).toFixed(1)} s`);
  else if (transactions !== undefined && String(transactions) !== getMeta(db, 'seeded_transactions')) {
    log(`sandbox: ${file} already holds ${getMeta(db, 'seeded_transactions')} Growth transactions; --transactions applies when seeding (add --reset).`);
  }
  // A database is reused as it is, so one seeded before the demo data changed lacks what came since
  // (the second Growth company of growth2-admin, for one).
  if (!seeded && getMeta(db, 'seed_version') !== SEED_VERSION) {
    log(`sandbox: ${file} holds older demo data (seed version ${getMeta(db, 'seed_version') ?? 'unknown'}, now ${SEED_VERSION}); add --reset to seed it again.`);
  }

  if (args['list-keys']) {
    console.log(JSON.stringify(listRoster(db), null, 2));
    db.close();
    return;
  }

  const certificate = args.https ? await getHttpsOptions({ log: (m) => console.log(`sandbox: ${m}`) }) : null;
  const running = await serveSandbox(db, {
    port,
    https: certificate ? { cert: certificate.cert, key: certificate.key, ca: certificate.ca, port: httpsPort } : undefined,
    cors: !args['no-cors'],
    dialect,
  });
  const notes = [args['no-cors'] ? 'with no CORS headers for any page' : '', dialect === 'standard' ? '' : `in the ${dialect} dialect`].filter(Boolean);
  console.log(`sandbox: serving ${running.baseUrl} (database ${file})${notes.length ? `, ${notes.join(', ')}` : ''}`);
  if (running.httpsBaseUrl && certificate) {
    console.log(`sandbox: and ${running.httpsBaseUrl} (certificate: ${certificate.source}; trust ${certificate.caPath})`);
  }
  console.log('sandbox: keys: npm run -s sandbox -- --list-keys');
  const stop = async () => {
    await running.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e) => {
  console.error(`sandbox: ${(e as Error).message}`);
  process.exit(1);
});
