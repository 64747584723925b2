import { Field, MessageBar, MessageBarBody, ProgressBar, Text, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { capMonthOf, planCap, type Client, type TeamUsage } from '../../api';
import { callsOf, linesOfMonth } from '../actionLog';
import { ChoiceField } from '../shared/ChoiceField';
import { useActions, useConnectionOf, useMeterCount, useTeamCount } from '../shared/hooks';
import type { ScreenProps } from '../services';
import { planLabel } from '../../runtime';
import type { ConnectedState } from '../session';
import { useScreenStyles } from '../shared/styles';
import { useLiveEffect } from '../shared/useLiveEffect';
import { formatAge, plural } from '../../runtime/screenKit';

// Usage: calls this add-in spent this month for the company (the client's meter, counted as the server
// counts), the plan's cap, the next reset (midnight Pacific on the 1st) and what spent them: the pane's
// actions and the FIN formulas' recalculations, one line each, adding up to the month's count. Through the
// team's gateway, the month's count is the team's (every call of the company's keys through it; the cap is
// the company's), and the lines are this add-in's share of it.

const useUsageStyles = makeStyles({
  /** The figures: labels and values in two columns. */
  figures: {
    margin: 0,
    display: 'grid',
    gridTemplateColumns: 'auto 1fr',
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalXS,
  },
  value: {
    margin: 0,
  },
  // The log is a plain table styled with Fluent's tokens: it is read, not sorted or selected, so Fluent's
  // Table (and its weight in the bundle) would add nothing.
  table: {
    width: '100%',
    borderCollapse: 'collapse',
    fontSize: tokens.fontSizeBase200,
  },
  cell: {
    textAlign: 'left',
    verticalAlign: 'top',
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalXS}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  /** Combined with cell through mergeClasses, so this textAlign replaces the cell's. */
  number: {
    textAlign: 'right',
  },
  head: {
    fontWeight: tokens.fontWeightSemibold,
  },
  total: {
    fontWeight: tokens.fontWeightSemibold,
    borderBottom: 'none',
  },
});

function n(value: number): string {
  return value.toLocaleString('en-US');
}

export function UsagePanel({ services, connection }: ScreenProps) {
  // With several companies, one at a time in full (its count, cap and lines): each company's cap is its own.
  const [companyId, setCompanyId] = useState(connection.companyId);
  const chosenId = connection.connections.some((c) => c.companyId === companyId) ? companyId : connection.companyId;
  const shown = useConnectionOf(connection, chosenId);
  return (
    <>
      {connection.connections.length > 1 && (
        <ChoiceField
          label="Company"
          value={chosenId}
          choices={connection.connections.map((c) => ({ key: c.companyId, label: c.isDefault ? `${c.name} (default)` : c.name }))}
          onChange={setCompanyId}
        />
      )}
      {shown ? <CompanyUsage services={services} connection={shown} all={connection} /> : <Text>Opening its connection…</Text>}
    </>
  );
}

function CompanyUsage({ services, connection, all }: ScreenProps & { all: ConnectedState }) {
  const styles = useScreenStyles();
  const usage = useUsageStyles();
  const own = useMeterCount(connection.client);
  const team = useTeamCount(connection.client);
  /** What is spent of the company's cap: the team's count where the gateway sent one. */
  const count = team?.count ?? own;
  const now = services.now();
  // This month's lines only: the count starts again at 0 on the 1st.
  const actions = linesOfMonth(useActions(services, connection.companyId), capMonthOf(now));
  const listed = callsOf(actions);
  /** Calls no line holds yet: formulas still calculating (their line comes when they settle), or spent before this log. */
  const unlisted = own === null ? 0 : Math.max(0, own - listed);
  const cap = planCap(connection.plan);
  const reset = connection.client.meter.nextReset();
  const limit = connection.client.meter.monthlyLimit;

  return (
    <div className={styles.screen}>
      <dl className={usage.figures}>
        <dt>Calls this month</dt>
        <dd className={usage.value} data-testid="usage-count">
          {count === null ? '…' : n(count)}
        </dd>
        {team && (
          <>
            <dt>Of them by this add-in</dt>
            <dd className={usage.value} data-testid="usage-own">
              {own === null ? '…' : n(own)}
            </dd>
          </>
        )}
        <dt>Monthly cap</dt>
        <dd className={usage.value}>{cap === undefined ? 'unknown' : `${n(cap)} (${planLabel(connection.plan)} plan)`}</dd>
        <dt>Next reset</dt>
        <dd className={usage.value}>{reset.date} at 00:00 Pacific Time</dd>
      </dl>
      {cap !== undefined && count !== null && (
        <Field label="Share of the monthly cap used" validationMessage={`${n(count)} of ${n(cap)} calls`} validationState="none">
          <ProgressBar value={Math.min(count, cap)} max={cap} color={count >= cap ? 'error' : count >= cap * 0.8 ? 'warning' : 'brand'} />
        </Field>
      )}
      {limit && (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>The API refused a call for the monthly cap. Nothing more can be fetched until {limit.resetDate} at 00:00 Pacific Time.</MessageBarBody>
        </MessageBar>
      )}
      {team ? (
        <TeamNote team={team} cap={cap} />
      ) : (
        <Text className={styles.note}>
          Counted by this add-in for this company, the way the API counts. Other tools using the company&apos;s keys spend from the same cap.
        </Text>
      )}
      {all.connections.length > 1 && <OtherCompaniesUsage services={services} connection={all} shown={connection.companyId} />}
      <h3>What spent them</h3>
      {actions.length === 0 && unlisted === 0 ? (
        <Text>No calls this month yet.</Text>
      ) : (
        <table className={usage.table} aria-label="What spent this month's calls">
          <thead>
            <tr>
              <th scope="col" className={mergeClasses(usage.cell, usage.head)}>
                Action
              </th>
              <th scope="col" className={mergeClasses(usage.cell, usage.head, usage.number)}>
                Calls
              </th>
              <th scope="col" className={mergeClasses(usage.cell, usage.head)}>
                When
              </th>
            </tr>
          </thead>
          <tbody>
            {actions.map((a, i) => (
              <tr key={`${a.at}-${i}`}>
                <td className={usage.cell}>
                  {a.action}
                  {a.failed ? ' (failed)' : ''}
                </td>
                <td className={mergeClasses(usage.cell, usage.number)}>{n(a.calls)}</td>
                <td className={usage.cell}>
                  <time dateTime={new Date(a.at).toISOString()}>{formatAge(a.at, now)}</time>
                </td>
              </tr>
            ))}
            {unlisted > 0 && (
              <tr>
                <td className={usage.cell}>Not on a line yet (formulas still calculating, or spent before this log)</td>
                <td className={mergeClasses(usage.cell, usage.number)}>{n(unlisted)}</td>
                <td className={usage.cell} />
              </tr>
            )}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" className={mergeClasses(usage.cell, usage.total)}>
                {team ? 'Total by this add-in' : 'Total this month'}
              </th>
              <td className={mergeClasses(usage.cell, usage.number, usage.total)}>{n(listed + unlisted)}</td>
              <td className={mergeClasses(usage.cell, usage.total)} />
            </tr>
          </tfoot>
        </table>
      )}
    </div>
  );
}

/** The team's count as the gateway said it, and what it does not count. */
function TeamNote({ team, cap }: { team: TeamUsage; cap: number | undefined }) {
  const styles = useScreenStyles();
  return (
    <>
      <Text weight="semibold" data-testid="usage-team">
        Your team, through the gateway: {n(team.count)}
        {cap === undefined ? '' : ` of ${n(cap)}`} this month
        {team.uncertain ? ' (may be more: the gateway could not count some calls)' : ''}
      </Text>
      <Text className={styles.note}>
        Counted by the team&apos;s gateway for every call made through it with this company&apos;s keys; the lines below are this add-in&apos;s. Tools that do not go through the gateway
        spend from the same cap.
      </Text>
    </>
  );
}

/** Each other company's count this month against its own cap (each company's cap is its own). */
function OtherCompaniesUsage({ services, connection, shown }: ScreenProps & { shown: string }) {
  const usage = useUsageStyles();
  const others = connection.connections.filter((c) => c.companyId !== shown);
  const [clients, setClients] = useState<Map<string, Client>>(new Map());
  useLiveEffect(
    (ifLive) => {
      void Promise.all(others.map(async (c) => [c.companyId, await services.runtime.getClient(c.companyId)] as const)).then(
        ifLive((pairs) => setClients(new Map(pairs.filter((p): p is readonly [string, Client] => p[1] !== null)))),
      );
    },
    // The list of companies is what matters, not the array's identity.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [services, others.map((c) => c.companyId).join(',')],
  );
  return (
    <>
      <h3>Other companies</h3>
      <dl className={usage.figures} aria-label="Other companies' calls this month">
        {others.map((c) => {
          const client = clients.get(c.companyId);
          const cap = planCap(c.plan);
          return [
            <dt key={`${c.companyId}-name`}>{c.name}</dt>,
            <dd key={`${c.companyId}-count`} className={usage.value}>
              {client ? <OtherCount client={client} /> : '…'}
              {cap === undefined ? '' : ` of ${n(cap)} (${planLabel(c.plan)} plan)`}
            </dd>,
          ];
        })}
      </dl>
    </>
  );
}

function OtherCount({ client }: { client: Client }) {
  const own = useMeterCount(client);
  const team = useTeamCount(client);
  const count = team?.count ?? own;
  return <>{count === null ? '…' : `${plural(count, 'call')}${team ? ' (the team, through the gateway)' : ''}`}</>;
}
