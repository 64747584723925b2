import {
  Body1,
  Button,
  Checkbox,
  Field,
  Input,
  ProgressBar,
  Text,
} from '@fluentui/react-components';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ApiError, ConfigError, PLAN_CAPS, type Plan } from '../../api';
import { ChoiceField } from '../shared/ChoiceField';
import { ErrorMessage } from '../shared/ErrorMessage';
import { useSession } from '../shared/hooks';
import type { PaneServices } from '../services';
import { PLANS, planLabel } from '../../runtime';
import type { ConnectedState, ConnectionSummary } from '../session';
import { useScreenStyles } from '../shared/styles';
import { DerivationSetting } from './DerivationSetting';

// Connect: an API key (and under Advanced a base URL and the fiscal year start), or one click on the demo
// company of the local sandbox. Connected: which company, the plan (the user's choice: the API does not
// report it), and Disconnect, which can also forget what this computer keeps about the company; then the
// other companies connected under their short names (the FIN functions' last argument), one of them the
// default, and a form to add one (offered by name when a formula asks for a company not connected here).
// The key stays in this form only until it is stored (or refused).

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const MONTH_CHOICES = MONTHS.map((m, i) => ({ key: String(i + 1), label: m }));

const PLAN_CHOICES = PLANS.map((p) => ({ key: p.key, label: `${p.label} (${PLAN_CAPS[p.key].toLocaleString('en-US')} calls a month)` }));
const PLAN_HINT = 'The API does not report the plan: it sets the monthly cap shown under Usage.';

function isKeyProblem(error: unknown): boolean {
  return (error instanceof ApiError && error.code === 'invalid_api_key') || (error instanceof ConfigError && error.field === 'apiKey');
}

export interface ConnectScreenProps {
  services: PaneServices;
  /** Move focus to the API key field when shown (after a disconnect). */
  focusKey?: boolean;
}

export function ConnectScreen({ services, focusKey }: ConnectScreenProps) {
  const state = useSession(services);
  if (state.status === 'connected') {
    return (
      <>
        <ConnectionDetails services={services} state={state} />
        <OtherConnections services={services} state={state} />
      </>
    );
  }
  return <ConnectForm services={services} focusKey={focusKey} />;
}

interface ConnectFormProps extends ConnectScreenProps {
  /** Adding a further company: a name field, and the default stays. */
  adding?: { name: string; onDone: () => void };
}

function ConnectForm({ services, focusKey, adding }: ConnectFormProps) {
  const styles = useScreenStyles();
  const [name, setName] = useState(adding?.name ?? '');
  const [apiKey, setApiKey] = useState('');
  const [plan, setPlan] = useState<Plan>('growth');
  const [baseUrl, setBaseUrl] = useState(services.defaultBaseUrl);
  const [fiscalStart, setFiscalStart] = useState(1);
  const [advanced, setAdvanced] = useState(false);
  const advancedId = useId();
  const [busy, setBusy] = useState<null | 'key' | 'demo'>(null);
  const [error, setError] = useState<unknown>(null);
  const keyRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (focusKey) keyRef.current?.focus();
  }, [focusKey]);

  const run = async (kind: 'key' | 'demo') => {
    setBusy(kind);
    setError(null);
    try {
      if (kind === 'key') {
        await services.session.connect({
          baseUrl,
          apiKey,
          plan,
          fiscalYearStartMonth: fiscalStart,
          ...(adding ? { name, keepDefault: true } : {}),
        });
      } else await services.session.connectDemo(baseUrl);
      setApiKey('');
      adding?.onDone();
    } catch (e) {
      setError(e);
      // A key the API refused is of no further use: clear it, ready for the new one.
      if (isKeyProblem(e)) setApiKey('');
      if (kind === 'key') keyRef.current?.focus();
    } finally {
      setBusy(null);
    }
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (busy === null) void run('key');
  };

  return (
    <section className={styles.screen} aria-labelledby={adding ? 'add-company-heading' : 'connect-heading'}>
      {adding ? (
        <>
          <h3 id="add-company-heading">Add a company</h3>
          <Body1>Each company has its own API key. Formulas name the company by its short name as their last argument.</Body1>
        </>
      ) : (
        <>
          <h2 id="connect-heading">Connect</h2>
          <Body1>
            Link this workbook to your company&apos;s financial data with an API key (Settings &gt; API Keys in the web app), or try the
            demo company on the local sandbox.
          </Body1>
        </>
      )}
      <form className={styles.screen} onSubmit={onSubmit} aria-busy={busy !== null}>
        {adding && (
          <Field label="Short name" hint="Formulas name the company by it, as their last argument. Default: the company's name.">
            <Input value={name} onChange={(_, d) => setName(d.value)} maxLength={40} spellCheck={false} />
          </Field>
        )}
        <Field label="API key" hint="Stored in this add-in's storage on this computer, never in the workbook.">
          <Input
            ref={keyRef}
            type="password"
            value={apiKey}
            onChange={(_, d) => setApiKey(d.value)}
            autoComplete="off"
            spellCheck={false}
            placeholder="svc_..."
          />
        </Field>
        <ChoiceField label="Plan" hint={PLAN_HINT} value={plan} choices={PLAN_CHOICES} onChange={setPlan} />
        {/* A disclosure (button + region) rather than Fluent's Accordion: same behaviour for keyboard and
            screen readers, without the accordion's animation code in the bundle. */}
        <h3 className={styles.disclosureHeading}>
          <Button
            type="button"
            appearance="transparent"
            aria-expanded={advanced}
            aria-controls={advancedId}
            onClick={() => setAdvanced((v) => !v)}
            className={styles.disclosure}
          >
            <span aria-hidden="true">{advanced ? '▾' : '▸'}</span>&nbsp;Advanced
          </Button>
        </h3>
        {advanced && (
          <div id={advancedId} role="region" aria-label="Advanced" className={styles.screen}>
            {/* Text, not type="url": the browser's own check of a url field would refuse a path such as /api/v1. */}
            <Field
              label="Base URL"
              hint="Ends in /api/v1: the API's address (https, or http on this computer for the sandbox), or a path such as /api/v1 where this add-in's own address relays the API."
            >
              <Input type="text" value={baseUrl} onChange={(_, d) => setBaseUrl(d.value)} spellCheck={false} />
            </Field>
            <ChoiceField
              label="Fiscal year starts in"
              hint="For quarters, years and year to date."
              value={String(fiscalStart)}
              choices={MONTH_CHOICES}
              onChange={(month) => setFiscalStart(Number(month))}
            />
          </div>
        )}
        <div className={styles.row}>
          <Button type="submit" appearance="primary" disabledFocusable={busy !== null}>
            Connect
          </Button>
          {adding ? (
            <Button type="button" onClick={adding.onDone}>
              Cancel
            </Button>
          ) : (
            <Button type="button" disabledFocusable={busy !== null} onClick={() => void run('demo')}>
              Try the demo company
            </Button>
          )}
        </div>
      </form>
      <div aria-live="polite">
        {busy && (
          <Field label={busy === 'demo' ? 'Connecting to the demo company…' : 'Checking the key…'}>
            <ProgressBar />
          </Field>
        )}
      </div>
      <ErrorMessage error={error} context={{ baseUrl, plan }} />
    </section>
  );
}

function ConnectionDetails({ services, state }: { services: PaneServices; state: ConnectedState }) {
  const styles = useScreenStyles();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [forgetCompany, setForgetCompany] = useState(false);

  const disconnect = async () => {
    setBusy(true);
    setError(null);
    try {
      await services.session.disconnect({ forgetCompany });
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };

  return (
    <section className={styles.screen} aria-label="Connection">
      <Text>
        Connected to <strong>{state.companyName}</strong> ({state.companyId}) at {state.baseUrl}.
      </Text>
      {state.connections.length > 1 && (
        <Text className={styles.note}>
          The default company, as &quot;{state.connections[0].name}&quot;: formulas without a company argument, and the Reports and Transactions tabs, use it.
        </Text>
      )}
      <ChoiceField label="Plan" hint={PLAN_HINT} value={state.plan} choices={PLAN_CHOICES} onChange={(p) => void services.session.setPlan(p).catch(setError)} />
      <Text className={styles.note}>
        {planLabel(state.plan)} plan. Fiscal year starts in {MONTHS[state.fiscalYearStartMonth - 1]}. Disconnecting removes the key from this
        computer; figures already in the workbook stay.
      </Text>
      <DerivationSetting services={services} companyId={state.companyId} />
      <Checkbox
        checked={forgetCompany}
        onChange={(_, d) => setForgetCompany(d.checked === true)}
        label={`Also forget the cached answers and action log of ${state.companyName} on this computer`}
      />
      <Text className={styles.note}>
        Cached answers let formulas and reopened workbooks show figures without spending API calls; forgotten, the next refresh fetches them
        again. Other add-ins served from the same address share this add-in&apos;s storage.
      </Text>
      <div className={styles.row}>
        <Button onClick={() => void disconnect()} disabled={busy}>
          Disconnect
        </Button>
      </div>
      <ErrorMessage error={error} context={{ baseUrl: state.baseUrl, plan: state.plan }} />
    </section>
  );
}

/** Connection names the workbook's formulas ask for that are not connected here, kept current. */
function useMissingConnections(services: PaneServices): string[] {
  const { runtime } = services;
  const [names, setNames] = useState<string[]>(() => runtime.missingConnections());
  useEffect(() => {
    const read = () =>
      setNames((was) => {
        const now = runtime.missingConnections();
        return now.join('\n') === was.join('\n') ? was : now;
      });
    read();
    return runtime.onDataChange(read);
  }, [runtime]);
  return names;
}

function OtherConnections({ services, state }: { services: PaneServices; state: ConnectedState }) {
  const styles = useScreenStyles();
  const missing = useMissingConnections(services);
  const [adding, setAdding] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const others = state.connections.filter((c) => !c.isDefault);

  const act = async (work: () => Promise<void>) => {
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(e);
    }
  };

  return (
    <section className={styles.screen} aria-labelledby="companies-heading">
      <h3 id="companies-heading">Other companies</h3>
      {others.length === 0 && <Text className={styles.note}>Only {state.connections[0].name} is connected.</Text>}
      {others.length > 0 && (
        <ul aria-label="Other companies">
          {others.map((c) => (
            <OtherConnection
              key={c.companyId}
              connection={c}
              onDefault={() => void act(() => services.session.setDefault(c.companyId))}
              onDisconnect={() => void act(() => services.session.disconnect({ companyId: c.companyId }))}
            />
          ))}
        </ul>
      )}
      {missing.map((name) => (
        <div key={name} className={styles.row} role="group" aria-label={`Not connected: ${name}`}>
          <Text>Formulas in this workbook ask for &quot;{name}&quot;, which is not connected on this computer.</Text>
          <Button onClick={() => setAdding(name)}>Connect &quot;{name}&quot;</Button>
        </div>
      ))}
      {adding === null ? (
        <div className={styles.row}>
          <Button onClick={() => setAdding('')}>Add a company</Button>
        </div>
      ) : (
        <ConnectForm key={adding} services={services} adding={{ name: adding, onDone: () => setAdding(null) }} />
      )}
      <ErrorMessage error={error} context={{ baseUrl: state.baseUrl, plan: state.plan }} />
    </section>
  );
}

function OtherConnection({ connection: c, onDefault, onDisconnect }: { connection: ConnectionSummary; onDefault: () => void; onDisconnect: () => void }) {
  const styles = useScreenStyles();
  return (
    <li aria-label={c.name}>
      <Text>
        <strong>{c.name}</strong>: {c.companyName} ({c.companyId}), {planLabel(c.plan)} plan.
      </Text>
      <div className={styles.row}>
        <Button size="small" onClick={onDefault}>
          Make default
        </Button>
        <Button size="small" onClick={onDisconnect} aria-label={`Disconnect ${c.name}`}>
          Disconnect
        </Button>
      </div>
    </li>
  );
}
