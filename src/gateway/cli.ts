// `npm run gateway`: the team's gateway (docs/deploying-for-a-team.md). Configured by the environment:
//   GATEWAY_UPSTREAM                the API's base URL including /api/v1 (required)
//   GATEWAY_PORT, GATEWAY_HOST      where to listen (default 4020 on 127.0.0.1: nginx in front)
//   GATEWAY_REDIS_URL               redis://... to share the meter and the cache between instances
//   GATEWAY_SECRET                  fingerprint secret (>= 32 characters); instances on one Redis must share it
//   GATEWAY_ACCESS_WINDOW_SECONDS   how long a key's own call proves its access to an area (default 300)
//   GATEWAY_CACHE_MAX_ENTRIES, GATEWAY_CACHE_MAX_BYTES, GATEWAY_CACHE_MAX_ENTRY_BYTES, GATEWAY_CACHE_TTL_SECONDS
import { configFromEnv } from './config';
import { startGateway } from './app';

async function main(): Promise<void> {
  let config;
  try {
    config = configFromEnv();
  } catch (error) {
    console.error(`gateway: ${(error as Error).message}`);
    process.exit(2);
  }
  const gateway = await startGateway({ config });
  const log = gateway.app.log;
  if (config.secretGenerated) {
    log.warn(
      config.redisUrl
        ? 'GATEWAY_SECRET is not set: a secret was made for this instance only. Every instance on this Redis must be given the same GATEWAY_SECRET, or each learns each key\'s company again (one call per key and instance).'
        : 'GATEWAY_SECRET is not set: a secret was made for this run (keys\' companies are learnt again after a restart).',
    );
  }
  log.info({ upstream: config.upstream.origin, store: config.redisUrl ? 'redis' : 'memory', access_window_seconds: config.accessWindowSeconds }, `gateway serving ${gateway.baseUrl}`);
  const stop = () => {
    gateway.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`gateway: ${(error as Error).message}`);
  process.exit(1);
});
