// A confirmed refresh run: of the selection or the sheet, of one block, or of the workbook; each tracked in
// the action log with the companies it spends on, its progress told as it goes, and what it did said after.

import type { WorkbookPlan } from '../../engine/refresh/plan';
import type { RefreshKind } from '../../engine/refresh/workbookRefresh';
import type { ScopePlan } from '../../engine/refresh/scopeRefresh';
import type { RefreshBlock } from '../../engine/statements';
import type { RefreshAsk, Workspace } from '../../runtime';
import { describeSpec, plural, specFromBinding } from '../../runtime/screenKit';
import type { PaneServices } from '../services';
import type { RefreshProgress } from './refreshProgress';

/** A refresh asked and shown, waiting for the user's go-ahead. */
export type Pending = { kind: RefreshKind; ask: RefreshAsk; text: string } | { kind: 'block'; block: RefreshBlock; text: string } | { kind: 'scope'; plan: ScopePlan; text: string };

export interface RunContext {
  services: PaneServices;
  workspace: Workspace;
  includeReference: boolean;
  /** A refresh of the workbook or a scope spends on each company it reads: the default one first. */
  everyCompany: string[];
  setProgress: (progress: RefreshProgress) => void;
  setResult: (result: string) => void;
  setError: (error: unknown) => void;
}

type Failures = { blocks: { failed: { error: unknown }[] }; tables: { outcome: string; error?: unknown }[] };

function showFailure(outcome: Failures, setError: (error: unknown) => void): void {
  const firstFailure = outcome.blocks.failed[0]?.error ?? outcome.tables.find((t) => t.outcome === 'failed')?.error;
  if (firstFailure) setError(firstFailure);
}

async function runScope(scoped: ScopePlan, { services, workspace, everyCompany, setProgress, setResult, setError }: RunContext): Promise<void> {
  setProgress({ phase: 'formulas' });
  const outcome = await services.actions.track(
    scoped.area.kind === 'sheet' ? `Refresh sheet ${scoped.area.sheet}` : 'Refresh selection',
    () =>
      workspace.refreshScope(scoped, {
        onPhase: () => setProgress({ phase: 'formulas' }),
        onProgress: (done, total, fetched) => setProgress({ phase: 'blocks', done, total, distinct: fetched }),
      }),
    everyCompany,
  );
  setResult(outcome.message);
  showFailure(outcome, setError);
}

async function runBlock(block: RefreshBlock, { services, workspace, setProgress, setResult }: RunContext): Promise<void> {
  const reports = block.keys.length;
  setProgress({ phase: 'blocks', done: 0, total: reports, distinct: reports });
  const company = block.binding.company;
  await services.actions.track(
    `Refresh ${describeSpec(block.spec)}`,
    () => workspace.refreshBlock(block, (done, total) => setProgress({ phase: 'blocks', done, total, distinct: total })),
    [company],
  );
  const spent = services.actions.entries(company)[0]?.calls ?? 0;
  setResult(`Refreshed the block at ${block.binding.address}. Spent ${plural(spent, 'call')}.`);
}

async function runWorkbook(kind: RefreshKind, ask: RefreshAsk, { services, workspace, includeReference, everyCompany, setProgress, setResult, setError }: RunContext): Promise<WorkbookPlan> {
  setProgress({ phase: kind === 'changed' ? 'asking' : 'formulas' });
  const { result: outcome, plan: left } = await services.actions.track(
    kind === 'changed' ? 'Refresh changes' : 'Full refresh',
    () =>
      workspace.refresh(ask, {
        includeReference,
        onPhase: (phase) => setProgress({ phase }),
        onProgress: (done, total, fetched) => setProgress({ phase: 'blocks', done, total, distinct: fetched }),
      }),
    everyCompany,
  );
  // Each block that failed is named: which statement, where, and that its figures are the old ones.
  const named = outcome.blocks.failed.map((f) => {
    const spec = specFromBinding(f.binding);
    return `${spec ? describeSpec(spec) : 'a block'} at ${f.binding.address}`;
  });
  setResult(named.length ? `${outcome.message} Not refreshed, previous figures kept: ${named.join('; ')}.` : outcome.message);
  showFailure(outcome, setError);
  return left;
}

/** Runs the refresh; the workbook's plan as a workbook refresh left it, else null (the caller reads it again). */
export async function runRefresh(job: Pending, context: RunContext): Promise<WorkbookPlan | null> {
  if (job.kind === 'scope') await runScope(job.plan, context);
  else if (job.kind === 'block') await runBlock(job.block, context);
  else return runWorkbook(job.kind, job.ask, context);
  return null;
}
