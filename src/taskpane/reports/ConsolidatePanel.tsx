import { Button, Checkbox, Field, Input, MessageBar, MessageBarBody, MessageBarTitle, Text } from '@fluentui/react-components';
import { useState } from 'react';
import type { NamedPeriodKey } from '../../engine/dates';
import type { ConsolidatedBlock } from '../../engine/consolidation/insert';
import { GROUPS_SETTING, withGroup, type GroupReview } from '../../runtime';
import { ChoiceField } from '../shared/ChoiceField';
import { ErrorMessage } from '../shared/ErrorMessage';
import type { PaneServices, ScreenProps } from '../services';
import type { ConnectedState } from '../session';
import { useScreenStyles } from '../shared/styles';
import { useLiveEffect } from '../shared/useLiveEffect';
import { formatAge, PERIOD_CHOICES, plural, statementLabel, STATEMENTS } from '../../runtime/screenKit';
import { groupNameClash, useConsolidation, useConsolidationActions } from './useConsolidation';

// A consolidated statement of several connected companies (issue 16, item 4): a column per company and the
// total, lines matched by category name path, no eliminations; each company's report through its own
// connection (one call per company, none for what is cached). The cost is shown per company before Insert.
// The blocks inserted are listed with Refresh this block: each company's report fetched again, one call each.
// The chosen companies can be saved as a group of the workbook for FIN lines; and the groups a workbook
// brings are shown for review on opening (WorkbookGroupsReview), none added up before the user accepts it.

/** A consolidated block of the workbook: what, where, when refreshed; Refresh this block and Forget. */
function ConsolidatedBlockItem({ block, missing, now, busy, onRefresh, onForget }: { block: ConsolidatedBlock; missing: { name: string }[]; now: number; busy: boolean; onRefresh: () => void; onForget: () => void }) {
  const styles = useScreenStyles();
  return (
    <li aria-label={`${block.title}: ${statementLabel(block.spec.statement)}, ${block.spec.start} to ${block.spec.end}`}>
      <Text block weight="semibold">
        {`${block.title}: ${statementLabel(block.spec.statement)}, ${block.spec.start} to ${block.spec.end}`}
      </Text>
      <Text block className={styles.note}>
        {`${block.binding.address}; refreshed ${formatAge(Date.parse(block.binding.refreshedAt), now)}`}
      </Text>
      {missing.length > 0 && <Text block>{`Connect ${missing.map((x) => x.name).join(' and ')} to refresh it.`}</Text>}
      <div className={styles.row}>
        {missing.length === 0 && (
          <Button size="small" onClick={onRefresh} disabledFocusable={busy}>
            {`Refresh this block (${plural(block.members.length, 'call')}, one per company)`}
          </Button>
        )}
        {/* The cells stay; only the record goes (a damaged block is refreshed no more). */}
        <Button size="small" onClick={onForget} disabledFocusable={busy}>
          Forget
        </Button>
      </div>
    </li>
  );
}

/** The pane's period picker, less Custom (a consolidation is of one named period). */
const PERIODS = PERIOD_CHOICES.filter((c): c is { key: NamedPeriodKey; label: string } => c.key !== 'custom');

export function ConsolidatePanel({ services, connection }: ScreenProps) {
  const styles = useScreenStyles();
  const [groupName, setGroupName] = useState('Group');
  const state = useConsolidation(services, connection);
  const { names, connectedIds, chosen, setChosen, statement, setStatement, periodKey, setPeriodKey, cost, error, blocks } = state;
  const { busy, result, insert, refreshBlock, forget, saveGroup } = useConsolidationActions(services, connection, state, groupName);

  if (names.length < 2) {
    return <Text className={styles.note}>Connect a second company (Connection tab) to put companies side by side in a consolidated statement.</Text>;
  }

  return (
    <section aria-labelledby="consolidate-heading" className={styles.screen}>
      <h3 id="consolidate-heading">Consolidated statement</h3>
      <div role="group" aria-label="Companies to consolidate">
        {names.map((name) => (
          <Checkbox
            key={name}
            label={name}
            checked={chosen.has(name)}
            disabled={busy}
            onChange={(_, d) =>
              setChosen((was) => {
                const next = new Set(was);
                if (d.checked === true) next.add(name);
                else next.delete(name);
                return next;
              })
            }
          />
        ))}
      </div>
      <ChoiceField label="Consolidated statement" value={statement} choices={STATEMENTS} onChange={setStatement} disabled={busy} />
      <ChoiceField label="Consolidated period" value={periodKey} choices={PERIODS} onChange={setPeriodKey} disabled={busy} />
      <Text className={styles.note}>
        Lines are matched by category name path (case and spaces aside); a line only some companies have is kept and marked. No eliminations; companies must report in
        one currency. {cost}
      </Text>
      <Button appearance="primary" onClick={() => void insert()} disabledFocusable={busy || chosen.size < 2}>
        Insert consolidated
      </Button>
      <Field label="Group name" hint="Saved in this workbook; FIN.TOTAL, FIN.PNL, FIN.BALANCE and FIN.CASHFLOW take it as their company argument and add up its companies.">
        <Input value={groupName} onChange={(_, d) => setGroupName(d.value)} maxLength={40} disabled={busy} />
      </Field>
      <Button onClick={() => void saveGroup()} disabledFocusable={busy || chosen.size < 2}>
        Save as a group
      </Button>
      {blocks.length > 0 && (
        <>
          <h4>Consolidated statements in this workbook</h4>
          <Text className={styles.note}>Refresh changes and Full refresh rebuild a consolidated statement when a company's figures in it are due (Refresh tab); Refresh this block fetches them all again now.</Text>
          <ul aria-label="Consolidated blocks">
            {blocks.map((block) => (
              <ConsolidatedBlockItem
                key={block.binding.id}
                block={block}
                missing={block.members.filter((x) => !connectedIds.has(x.companyId))}
                now={services.now()}
                busy={busy}
                onRefresh={() => void refreshBlock(block)}
                onForget={() => void forget(block)}
              />
            ))}
          </ul>
        </>
      )}
      <div role="status" aria-live="polite">
        {result}
      </div>
      <ErrorMessage error={error} context={{ baseUrl: connection.baseUrl, plan: connection.plan }} />
    </section>
  );
}

/**
 * The groups of companies the workbook brings that this computer has not accepted, above the tabs on
 * opening: each with the companies it would add up (as connected here) and Accept or Remove. Until accepted,
 * a formula naming one says "Connect …" and adds nothing up (runtime/groups.ts).
 */
export function WorkbookGroupsReview({ services, connection }: { services: PaneServices; connection: ConnectedState }) {
  const [pending, setPending] = useState<GroupReview[]>([]);
  const [version, setVersion] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  // Read on opening, when the connections change (a member may resolve differently) and after each decision.
  useLiveEffect(
    (ifLive) => {
      void services.runtime.workbookGroups().then(
        ifLive((groups) => setPending(groups.filter((g) => !g.accepted))),
        () => undefined,
      );
    },
    [services.runtime, connection.connections, version],
  );

  if (pending.length === 0) return null;

  const companyOf = (companyId: string) => connection.connections.find((c) => c.companyId === companyId)?.companyName;
  const decide = async (group: GroupReview, accept: boolean) => {
    setBusy(true);
    setError(null);
    try {
      if (accept) await services.runtime.acceptGroup(group.name);
      else {
        await services.gateway.writeSetting(GROUPS_SETTING, withGroup(await services.gateway.readSetting(GROUPS_SETTING), group.name, []));
        await services.runtime.reloadGroups();
      }
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
      setVersion((v) => v + 1);
    }
  };

  return (
    <section aria-label="Groups of companies in this workbook">
      <MessageBar intent="warning" layout="multiline">
        <MessageBarBody>
          <MessageBarTitle>
            This workbook brings {plural(pending.length, 'group')} of companies
          </MessageBarTitle>{' '}
          A formula naming a group adds up its companies&apos; figures, on this computer only once you accept it: check each is the companies you expect. Until then it
          says &quot;Connect …&quot;.
          <ul aria-label="Groups to review">
            {pending.map((group) => {
              const clash = group.shadowedBy ? `A connection is named so: formulas naming it read ${group.shadowedBy}, never this group.` : groupNameClash(group.name, connection);
              const companies = [
                ...group.companies.map((c) => `${c.name}${companyOf(c.companyId) && companyOf(c.companyId) !== c.name ? ` (${companyOf(c.companyId)})` : ''}`),
                ...group.missing.map((m) => `${m} (not connected here)`),
              ];
              return (
                <li key={group.name} aria-label={`Group ${group.name}`}>
                  <Text block>{`"${group.name}" adds up ${companies.join(' + ')}`}</Text>
                  {clash && <Text block>{clash}</Text>}
                  <Button size="small" appearance="primary" onClick={() => void decide(group, true)} disabledFocusable={busy || clash !== null}>
                    Accept
                  </Button>{' '}
                  <Button size="small" onClick={() => void decide(group, false)} disabledFocusable={busy}>
                    Remove from this workbook
                  </Button>
                </li>
              );
            })}
          </ul>
        </MessageBarBody>
      </MessageBar>
      <ErrorMessage error={error} context={{ baseUrl: connection.baseUrl, plan: connection.plan }} />
    </section>
  );
}
