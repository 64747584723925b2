import { Button, Text } from '@fluentui/react-components';
import { useState } from 'react';
import type { PackRoles, RoleProposal } from '../../engine/reporting/packRoles';
import { ChoiceField } from '../shared/ChoiceField';
import { ErrorMessage } from '../shared/ErrorMessage';
import type { PaneServices } from '../services';
import type { ConnectedState } from '../session';
import { useScreenStyles } from '../shared/styles';
import { useLiveEffect } from '../shared/useLiveEffect';

// The pack's one role the spec does not name: which of the company's categories is its cost of revenue (the
// gross margin is revenue less it; operating expenses are the other expenses). Proposed from the chart of
// accounts by name, confirmed or changed here, kept with the pack. The chart is one of the pack's own reads:
// it is shown here once cached, or read on the user's word (a call of the pack's cost, spent early), never on
// opening the tab.

const NONE = '';

export interface PackRolesFieldProps {
  services: PaneServices;
  connection: ConnectedState;
  /** The roles as chosen here; undefined: none chosen, the proposal's used when inserting (and shown). */
  roles: PackRoles | undefined;
  onChange: (roles: PackRoles) => void;
  disabled: boolean;
  /** Bumped when what is cached may have changed: a chart read since is then shown. */
  costVersion: number;
  /** The chart was read here: the pack's cost shown counted it, and is to be worked out again without it. */
  onChartRead: () => void;
  /** The pack is in the workbook already: reading the chart is then a call of its own, not one of the pack's. */
  inserted?: boolean;
}

export function PackRolesField({ services, connection, roles, onChange, disabled, costVersion, onChartRead, inserted = false }: PackRolesFieldProps) {
  const styles = useScreenStyles();
  const [proposal, setProposal] = useState<RoleProposal | null>(null);
  const [reading, setReading] = useState(false);
  const [error, setError] = useState<unknown>(null);

  // A chart cached since (the pack's cost read, another block) shows the choice with no call.
  useLiveEffect(
    (ifLive) => {
      connection.workspace.reporting.proposeRoles({ cachedOnly: true }).then(
        ifLive((p: RoleProposal | null) => {
          if (p) setProposal(p);
        }),
        () => undefined,
      );
    },
    [connection.workspace, costVersion],
  );

  const readChart = async () => {
    setReading(true);
    setError(null);
    try {
      // An action of its own, so its call is said as the chart's, not taken for the pack's formulas'.
      setProposal(await services.actions.track('Read the chart of accounts for the board pack', () => connection.workspace.reporting.proposeRoles()));
      onChartRead();
    } catch (e) {
      setError(e);
    } finally {
      setReading(false);
    }
  };

  if (!proposal) {
    return (
      <div className={styles.screen}>
        <Text size={200}>
          {inserted
            ? 'Cost of revenue, for the gross margin: the one the pack reads now is shown once the chart of accounts is read.'
            : 'Cost of revenue, for the gross margin: proposed from your chart of accounts when inserting (the pack reads the chart anyway).'}
        </Text>
        <div className={styles.row}>
          <Button size="small" onClick={() => void readChart()} disabledFocusable={disabled || reading}>
            {inserted ? 'Change it (reads the chart of accounts: 1 call)' : "Choose it now (reads the chart of accounts: 1 call of the pack's cost)"}
          </Button>
        </div>
        <ErrorMessage error={error} />
      </div>
    );
  }

  // Untouched, the field shows the proposal, which is what inserting uses when none is chosen.
  const chosen = (roles ?? proposal.roles).costOfRevenue?.id ?? NONE;
  const proposed = proposal.roles.costOfRevenue;
  const hint = proposed
    ? `Proposed: ${proposed.name}, named like a cost of revenue. Operating expenses are the other expenses.`
    : 'No category is named like a cost of revenue: choose the one that is, or leave the gross margin out (operating expenses are then every expense).';
  return (
    <ChoiceField
      label="Cost of revenue (gross margin)"
      hint={hint}
      value={chosen}
      choices={[
        ...proposal.candidates.map((c) => ({ key: c.id, label: c.path })),
        { key: NONE, label: 'None: leave the gross margin out' },
      ]}
      onChange={(id) => {
        const c = proposal.candidates.find((x) => x.id === id);
        onChange({ costOfRevenue: c ? { id: c.id, name: c.name } : null });
      }}
      disabled={disabled}
    />
  );
}
