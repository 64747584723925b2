import type { RouteModule } from '../context';
import { accountsRoutes } from './accounts';
import { aggregationsRoutes } from './aggregations';
import { cardsRoutes } from './cards';
import { companyRoutes } from './company';
import { integrationsRoutes } from './integrations';
import { jobsRoutes } from './jobs';
import { journalRoutes } from './journal';
import { merchantsRoutes } from './merchants';
import { reportsRoutes } from './reports';
import { rulesRoutes } from './rules';
import { setupRoutes } from './setup';
import { teamRoutes } from './team';
import { transactionsRoutes } from './transactions';

/** Every route family of /api/v1, registered under that prefix. */
export const ROUTE_MODULES: RouteModule[] = [
  companyRoutes,
  setupRoutes,
  integrationsRoutes,
  rulesRoutes,
  teamRoutes,
  transactionsRoutes,
  jobsRoutes,
  accountsRoutes,
  cardsRoutes,
  journalRoutes,
  aggregationsRoutes,
  merchantsRoutes,
  reportsRoutes,
];
