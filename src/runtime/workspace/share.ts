// Share as values (Workspace.share): what each sheet holds and what to warn about, then the values copies.

import { shareAsValues, surveyWorkbook } from '../../engine/share';
import type { CompanyWorkspace, Workspace, WorkspaceConnections, WorkspaceEnv } from './types';

type Env = Pick<WorkspaceEnv, 'gateway' | 'now' | 'timeZone'> & { runtime: Pick<WorkspaceEnv['runtime'], 'getFinService' | 'cellCompanies'> };

export function workspaceShare(env: Env, own: Pick<CompanyWorkspace, 'statements'>, connected: Pick<WorkspaceConnections, 'connections'>): Workspace['share'] {
  const { runtime, gateway } = env;
  return {
    survey: async (finQuietMs) => {
      const now = env.now();
      const plan = await own.statements.plan();
      const fin = await runtime.getFinService();
      const formulasAsOf = await fin?.dataAsOf().catch(() => undefined);
      const sheets = await surveyWorkbook(gateway, { plan, now, finCompanies: (cells) => runtime.cellCompanies(cells) });
      // The FIN functions still at work (certain: the add-in's own count), and whether Excel says it is done
      // (it may never say it: office-js#3319), told apart: a cell calculating again shows its old figure.
      const finCalculating = fin ? !(await fin.whenIdle(finQuietMs, finQuietMs * 4)) : false;
      const calculating = await gateway.isCalculating();
      const companyNames = Object.fromEntries(connected.connections.map((c) => [c.companyId, c.companyName]));
      return { sheets, facts: { companyNames, formulasAsOf, formulasChanged: plan.changedCalls.formulaCalls, calculating, finCalculating, now, timeZone: env.timeZone } };
    },
    copy: async (names, facts, onProgress, options = {}) => {
      // The sheets are read again: cells may have finished computing (or been edited) since the survey.
      const fresh = await surveyWorkbook(gateway, { plan: await own.statements.plan(), now: env.now(), finCompanies: (cells) => runtime.cellCompanies(cells) });
      const chosen = new Set(names);
      const fin = await runtime.getFinService();
      // Nothing is copied while FIN formulas are still calculating: the copy would keep their previous figures.
      const finSettled = async () => !fin || (await fin.whenIdle(300, 1200));
      return shareAsValues(gateway, fresh.filter((sheet) => chosen.has(sheet.sheet)), { ...facts, now: env.now() }, onProgress, { finSettled, includePushLog: options.includePushLog });
    },
  };
}
