/** @jest-environment ./test/support/jsdom-with-fetch.js */
// An error stays on screen as Fluent's error MessageBar, named "Error: <title>", and is read out once
// through Fluent's announcer (the announce context App provides), not through a hand-made role="alert".

import { AnnounceProvider, FluentProvider, webLightTheme } from '@fluentui/react-components';
import { render, screen } from '@testing-library/react';
import { ErrorMessage } from '../../src/taskpane/shared/ErrorMessage';
import { PaneError } from '../../src/taskpane/shared/errors';

function renderWith(announce: jest.Mock, error: unknown) {
  const tree = (e: unknown) => (
    <FluentProvider theme={webLightTheme}>
      <AnnounceProvider value={{ announce }}>
        <ErrorMessage error={e} />
      </AnnounceProvider>
    </FluentProvider>
  );
  const view = render(tree(error));
  return { ...view, show: (e: unknown) => view.rerender(tree(e)) };
}

test('the error is a group named by its title, announced once, with no role="alert"', () => {
  const announce = jest.fn();
  const view = renderWith(announce, new PaneError('Monthly API limit reached', 'Nothing can be fetched until 2026-12-01.', 'monthly_limit_exceeded'));
  const bar = screen.getByRole('group', { name: 'Error: Monthly API limit reached' });
  expect(bar.textContent).toContain('Nothing can be fetched until 2026-12-01.');
  expect(screen.queryByRole('alert')).toBeNull();
  expect(announce).toHaveBeenCalledTimes(1);
  expect(announce.mock.calls[0][0]).toMatch(/^Error: Monthly API limit reached Nothing can be fetched until 2026-12-01\.$/);
  expect(announce.mock.calls[0][1]).toMatchObject({ alert: true });

  // The same error again is not announced again; another one is.
  view.show(new PaneError('Monthly API limit reached', 'Nothing can be fetched until 2026-12-01.', 'monthly_limit_exceeded'));
  expect(announce).toHaveBeenCalledTimes(1);
  view.show(new PaneError('Cannot reach the API', 'Check the base URL.'));
  expect(announce).toHaveBeenCalledTimes(2);
  expect(screen.getByRole('group', { name: 'Error: Cannot reach the API' })).toBeTruthy();

  view.show(null);
  expect(screen.queryByRole('group')).toBeNull();
});
