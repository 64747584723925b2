import { Button } from '@fluentui/react-components';
import { useState } from 'react';
import type { BoardPack } from '../../engine/reporting/boardPack';
import type { PackRoles } from '../../engine/reporting/packRoles';
import { PackRolesField } from './PackRolesField';
import { ActionOutcome } from '../shared/ActionOutcome';
import type { PaneServices } from '../services';
import type { ConnectedState } from '../session';
import { useScreenStyles } from '../shared/styles';

// The pack's roles changed after it is inserted (issue 37, item 2): the cost of revenue mapped to another
// category, or to none. Its KPI and chart formulas are written again and the choice kept with the pack (Roll
// forward and refreshes read it). The formulas then read the statements the pack has cached: no call.

export interface PackRolesEditProps {
  services: PaneServices;
  connection: ConnectedState;
  pack: BoardPack;
  costVersion: number;
  /** The pack changed: read it again. */
  onChanged: () => void;
}

function sameRoles(a: PackRoles | undefined, b: PackRoles | undefined): boolean {
  return (a?.costOfRevenue?.id ?? null) === (b?.costOfRevenue?.id ?? null);
}

export function PackRolesEdit({ services, connection, pack, costVersion, onChanged }: PackRolesEditProps) {
  const styles = useScreenStyles();
  // The roles chosen here; undefined: the pack's own (shown as they are).
  const [roles, setRoles] = useState<PackRoles | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState('');
  const [error, setError] = useState<unknown>(null);
  const chosen = roles ?? pack.roles;
  const changed = roles !== undefined && !sameRoles(roles, pack.roles);

  const apply = async () => {
    if (!roles) return;
    setBusy(true);
    setError(null);
    setResult('');
    try {
      await services.actions.track('Change the board pack\u2019s cost of revenue', () => connection.workspace.reporting.changePackRoles(roles));
      const cor = roles.costOfRevenue;
      setResult(
        cor
          ? `The board pack's cost of revenue is now ${cor.name}: its KPI and chart formulas were written again (the gross margin with it), reading the statements already cached.`
          : "The board pack has no cost of revenue now: its gross margin is left out with a word, its chart deleted, and every expense counts as an operating expense.",
      );
      setRoles(undefined);
      onChanged();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PackRolesField services={services} connection={connection} roles={chosen} onChange={setRoles} disabled={busy} costVersion={costVersion} onChartRead={() => undefined} inserted />
      <div className={styles.row}>
        <Button size="small" onClick={() => void apply()} disabledFocusable={busy || !changed}>
          Change it in the board pack
        </Button>
      </div>
      <ActionOutcome progress={null} label="Changing the board pack" unit="sheets" result={result} error={error} connection={connection} />
    </>
  );
}
