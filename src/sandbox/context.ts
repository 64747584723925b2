import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from './db/open';
import type { Clock } from './clock';
import type { Permissions } from './permissions';
import type { Faults } from './http/faults';

/** What every route module gets: the database, the clock, and the server's signing secret. */
export interface SandboxContext {
  db: Db;
  clock: Clock;
  /** HMAC secret for opaque cursors (sync cursors, job-error cursors); stable per database. */
  secret: string;
  faults: Faults;
  settings: SandboxSettings;
  /** Wakes the bulk-update worker (called after a job is queued). */
  kickWorker: () => void;
}

/** Test-adjustable behaviour (POST /__sandbox/control). */
export interface SandboxSettings {
  /** Time a bulk-update job stays in `processing` between freezing its targets and committing. */
  jobProcessingDelayMs: number;
  /** When true the worker leaves jobs queued (to observe queued jobs or pile up work). */
  workerPaused: boolean;
  /**
   * The other reading of an open point (issue 34): point-in-time totals of a subtree holding Retained
   * Earnings sum what was posted there only, not the computed earnings the balance sheet shows.
   */
  totalsWithoutComputedEarnings?: boolean;
}

/** The authenticated caller, resolved freshly from the database on every request. */
export interface Caller {
  key: string;
  userId: string;
  companyId: string;
  permissions: Permissions;
  plan: 'formation' | 'startup' | 'growth';
  planStatus: 'active' | 'trialing' | 'ended';
  rbacEnabled: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
    /** Raw request body as text ('' when none): routes parse it themselves so every failure is an envelope. */
    rawBody?: string;
  }
}

export type RouteModule = (app: FastifyInstance, ctx: SandboxContext) => void;

export function callerOf(req: FastifyRequest): Caller {
  if (!req.caller) throw new Error('route reached without an authenticated caller');
  return req.caller;
}
