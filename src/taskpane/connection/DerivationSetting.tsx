import { Checkbox, Text } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import type { PaneServices } from '../services';
import { ErrorMessage } from '../shared/ErrorMessage';
import { useScreenStyles } from '../shared/styles';

// The connection's derivation setting (issue 30): figures the cached monthly statements decide exactly (a
// quarter's total of a category, a year to date's statement) are answered from them at no call, unless the
// user turns it off or a full refresh found the API's figures differing from its statements (said here).

interface Setting {
  on: boolean;
  because?: string;
}

async function settingOf(services: PaneServices, companyId: string): Promise<Setting> {
  const connection = await services.runtime.getConnection(companyId);
  return { on: connection?.deriveFromStatements !== false, because: connection?.derivationOffBecause };
}

export function DerivationSetting({ services, companyId }: { services: PaneServices; companyId: string }) {
  const styles = useScreenStyles();
  const [setting, setSetting] = useState<Setting | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let live = true;
    void settingOf(services, companyId).then((s) => live && setSetting(s), setError);
    return () => {
      live = false;
    };
  }, [services, companyId]);
  if (!setting) return null;
  const change = async (on: boolean) => {
    setError(null);
    try {
      await services.runtime.setDerivation(on, { company: companyId });
      setSetting(await settingOf(services, companyId));
    } catch (e) {
      setError(e);
    }
  };
  return (
    <>
      <Checkbox
        checked={setting.on}
        onChange={(_, d) => void change(d.checked === true)}
        label="Answer figures the monthly statements already decide from them, at no call"
      />
      <Text className={styles.note}>
        {setting.on
          ? 'A quarter or a year to date is the sum of its months: totals and statements of months already fetched cost nothing. A full refresh checks the figures the API gives against its statements.'
          : `Off: every figure is fetched from the API.${setting.because ? ` Turned off by a full refresh: ${setting.because}.` : ''} A full refresh says whether the API's figures match its statements.`}
      </Text>
      <ErrorMessage error={error} />
    </>
  );
}
