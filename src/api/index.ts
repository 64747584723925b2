import { accountsApi } from './accounts';
import { aggregationsApi } from './aggregations';
import { cardsApi } from './cards';
import { resolveConfig, type ClientConfig } from './config';
import { integrationsApi } from './integrations';
import { jobsApi } from './jobs';
import { journalApi } from './journal';
import { RequestLimiter } from './limiter';
import { CallMeter, ClientMeter } from './meter';
import { ParameterNames } from './parameterNames';
import { merchantsApi } from './parties';
import { reportsApi } from './reports';
import { rulesApi } from './rules';
import { categoriesApi, companyApi, departmentsApi } from './setup';
import { teamApi } from './team';
import { transactionsApi } from './transactions';
import { createTransport, type CallOptions } from './transport';

// The add-in's only way to the API. createClient validates the configuration, builds the one transport
// (auth, retries, limiter, meter) and groups the endpoint modules by resource family.

export function createClient(config: ClientConfig) {
  const { resolved, apiKey } = resolveConfig(config);
  const limiter =
    config.limiter ??
    new RequestLimiter({
      maxConcurrent: resolved.maxConcurrent,
      maxPerWindow: resolved.maxPerWindow,
      windowMs: resolved.windowMs,
      sleep: resolved.sleep,
    });
  const callMeter = config.meter ?? new CallMeter({ store: config.meterStore });
  const meter = new ClientMeter(callMeter, resolved.now, config.companyId);
  const transport = createTransport(resolved, apiKey, meter, limiter);
  const names = new ParameterNames(config.learnedNames, { baseUrl: resolved.baseUrl, apiKey });

  const transactions = transactionsApi(transport);
  const company = companyApi(transport);

  return {
    transactions,
    jobs: jobsApi(transport, transactions),
    accounts: accountsApi(transport),
    cards: cardsApi(transport),
    journalEntries: journalApi(transport),
    aggregations: aggregationsApi(transport, names),
    merchants: merchantsApi(transport, names),
    reports: reportsApi(transport),
    categories: categoriesApi(transport),
    departments: departmentsApi(transport),
    company,
    integrations: integrationsApi(transport),
    rules: rulesApi(transport),
    team: teamApi(transport),

    /** Calls spent this Pacific month for this client's company, plan caps, next reset, change events. */
    meter,
    limiter,
    /** The validated base URL (the key is never exposed). */
    baseUrl: resolved.baseUrl,

    get companyId(): string | null {
      return meter.companyId;
    },
    /** Tell the client its company (e.g. from storage) so counts are attributed without a GET /company. */
    setCompanyId: (companyId: string): Promise<void> => meter.setCompanyId(companyId),
    /** The company id, spending one GET /company only when it is not known yet. */
    ensureCompanyId: async (opts?: CallOptions): Promise<string> => meter.companyId ?? (await company.retrieve(opts)).id,
  };
}

export type Client = ReturnType<typeof createClient>;

export { ApiError, MonthlyLimitError } from './errors';
export { UnreadableAnswer, UNREADABLE_ANSWER } from './answerShape';
export type { LearnedNamesStore } from './parameterNames';
export { ConfigError, currentPageOrigin, isLoopbackHost, validateApiKey, validateBaseUrl, type ClientConfig } from './config';
export { CallMeter, MemoryMeterStore, PLAN_CAPS, planCap, meterKey, type MeterStore, type MeterChange, type Plan, type TeamUsage } from './meter';
export { RequestChain, RequestLimiter } from './limiter';
export { capMonthOf, nextMonthlyReset } from './calendar';
export { MAX_LIST_PAGES } from './paging';
export { generateIdempotencyKey, MAX_JOB_ERROR_PAGES } from './jobs';
export type { SyncPage } from './sync';
export { MAX_RESPONSE_BYTES } from './transport';
export type * from './types';
