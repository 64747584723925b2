import { AriaLiveAnnouncer, Body1, Caption1, FluentProvider, ProgressBar, Tab, TabList, Title2, makeStyles, tokens, type Theme } from '@fluentui/react-components';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { ConnectScreen } from './connection/ConnectScreen';
import { ConsolidatePanel, WorkbookGroupsReview } from './reports/ConsolidatePanel';
import { FormulaHelper } from './formulas/FormulaHelper';
import { useSession } from './shared/hooks';
import { NotConnectedNotice } from './connection/NotConnectedNotice';
import { RefreshPanel, type RibbonAsk } from './refresh/RefreshPanel';
import { ReportsScreen } from './reports/ReportsScreen';
import type { PaneServices } from './services';
import { SharePanel } from './share/SharePanel';
import { planLabel } from '../runtime';
import type { ConnectedState } from './session';
import { TransactionsScreen } from './transactions/TransactionsScreen';
import { UsagePanel } from './usage/UsagePanel';

// The pane: Connect until there is a connection, then one tab per job. Office.js stays in index.tsx; every
// screen gets the services (gateway, runtime, storage) as props.

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalM,
    padding: tokens.spacingHorizontalL,
    minHeight: '100vh',
    boxSizing: 'border-box',
  },
  header: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXS,
  },
  tabs: {
    flexWrap: 'wrap',
  },
  panel: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalM,
  },
  panelHeading: {
    margin: 0,
    fontSize: tokens.fontSizeBase500,
    fontWeight: tokens.fontWeightSemibold,
    ':focus': { outline: 'none' },
  },
  outsideExcel: {
    display: 'block',
    margin: 0,
    padding: tokens.spacingHorizontalL,
  },
});

export const PRODUCT_NAME = 'Financial Reporting';

const TABS = [
  { key: 'reports', label: 'Reports', heading: 'Insert a statement' },
  { key: 'formulas', label: 'Formulas', heading: 'Insert a formula' },
  { key: 'transactions', label: 'Transactions', heading: 'Transactions' },
  { key: 'refresh', label: 'Refresh', heading: 'Refresh' },
  { key: 'share', label: 'Share', heading: 'Share as values' },
  { key: 'usage', label: 'Usage', heading: 'Usage' },
  { key: 'connection', label: 'Connection', heading: 'Connection' },
] as const;

type TabKey = (typeof TABS)[number]['key'];

export interface AppProps {
  theme: Theme;
  services: PaneServices;
}

export function App({ theme, services }: AppProps) {
  return (
    <FluentProvider theme={theme}>
      {/* Fluent's announcer: MessageBars (errors, results, warnings) are read out through it. */}
      <AriaLiveAnnouncer>
        <Pane services={services} />
      </AriaLiveAnnouncer>
    </FluentProvider>
  );
}

/** The page opened outside Excel, where there is no add-in storage and no workbook: says so. */
export function OutsideExcel({ theme }: { theme: Theme }) {
  return (
    <FluentProvider theme={theme}>
      <OutsideExcelMessage />
    </FluentProvider>
  );
}

function OutsideExcelMessage() {
  const styles = useStyles();
  return (
    <Body1 as="p" className={styles.outsideExcel}>
      Open this add-in in Excel to use it.
    </Body1>
  );
}

function Pane({ services }: { services: PaneServices }) {
  const styles = useStyles();
  const state = useSession(services);
  const previous = useRef(state.status);
  const [focusKey, setFocusKey] = useState(false);
  const [focusPanel, setFocusPanel] = useState(false);

  useEffect(() => {
    void services.session.restore();
  }, [services]);

  // Focus follows what the user did: after connecting, the first tab's heading; after disconnecting, the key.
  // Layout effects, so focus moves in the same frame the new screen appears, not a render later.
  useLayoutEffect(() => {
    if (previous.current === 'disconnected' && state.status === 'connected') setFocusPanel(true);
    if (previous.current === 'connected' && state.status === 'disconnected') setFocusKey(true);
    previous.current = state.status;
  }, [state.status]);

  return (
    <main className={styles.root}>
      <header className={styles.header}>
        <Title2 as="h1">{PRODUCT_NAME}</Title2>
        {state.status === 'connected' && (
          <Caption1>
            {state.companyName} · {planLabel(state.plan)} plan
          </Caption1>
        )}
      </header>
      {state.status === 'loading' && <ProgressBar aria-label="Loading" />}
      {state.status === 'disconnected' && <ConnectScreen services={services} focusKey={focusKey} />}
      {/* Above the tabs, so it is what the user sees right after connecting, whichever tab is open. */}
      {state.status === 'connected' && <NotConnectedNotice services={services} onDismissed={() => setFocusPanel(true)} />}
      {/* On opening: groups of companies the workbook brings, none added up before the user accepts it. */}
      {state.status === 'connected' && <WorkbookGroupsReview services={services} connection={state} />}
      {state.status === 'connected' && <Tabs services={services} connection={state} focusPanel={focusPanel} onFocused={() => setFocusPanel(false)} />}
    </main>
  );
}

function Tabs({ services, connection, focusPanel, onFocused }: { services: PaneServices; connection: ConnectedState; focusPanel: boolean; onFocused: () => void }) {
  const styles = useStyles();
  const [tab, setTab] = useState<TabKey>('reports');
  /** What a ribbon Refresh button asked, numbered: the Refresh panel then shows its cost and asks to go ahead. */
  const [refreshAsked, setRefreshAsked] = useState<RibbonAsk | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const current = TABS.find((t) => t.key === tab)!;

  useEffect(
    () =>
      services.runtime.onPaneRequest((request) => {
        setTab('refresh');
        setRefreshAsked((was) => ({ request, n: (was?.n ?? 0) + 1 }));
      }),
    [services],
  );

  useLayoutEffect(() => {
    if (focusPanel) {
      heading.current?.focus();
      onFocused();
    }
  }, [focusPanel, onFocused]);

  return (
    <>
      <TabList className={styles.tabs} size="small" selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as TabKey)} aria-label="Sections">
        {TABS.map((t) => (
          <Tab key={t.key} id={`tab-${t.key}`} value={t.key} aria-controls="pane-panel">
            {t.label}
          </Tab>
        ))}
      </TabList>
      <div role="tabpanel" id="pane-panel" aria-labelledby={`tab-${tab}`} className={styles.panel}>
        <h2 ref={heading} tabIndex={-1} className={styles.panelHeading}>
          {current.heading}
        </h2>
        {tab === 'reports' && (
          <>
            <ReportsScreen services={services} connection={connection} />
            <ConsolidatePanel services={services} connection={connection} />
          </>
        )}
        {tab === 'formulas' && <FormulaHelper services={services} connection={connection} />}
        {tab === 'transactions' && <TransactionsScreen services={services} />}
        {tab === 'refresh' && <RefreshPanel services={services} connection={connection} ribbonAsk={refreshAsked} />}
        {tab === 'share' && <SharePanel services={services} connection={connection} />}
        {tab === 'usage' && <UsagePanel services={services} connection={connection} />}
        {tab === 'connection' && <ConnectScreen services={services} />}
      </div>
    </>
  );
}
