/** @jest-environment ./test/support/jsdom-with-fetch.js */
// The screens' late answers: a cost, a list or a read asked for old inputs that arrives after the inputs
// changed (or the screen went) is dropped, so it never shows over the answer for what is on screen now.

import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { useLiveEffect } from '../../src/taskpane/shared/useLiveEffect';

/** Answers the caller settles by hand, in any order. */
function answers() {
  const pending = new Map<string, (value: string) => void>();
  const ask = jest.fn((question: string) => new Promise<string>((resolve) => pending.set(question, resolve)));
  const answer = (question: string, value: string) =>
    act(async () => {
      pending.get(question)!(value);
    });
  return { ask, answer };
}

function Answer({ ask, question, onAnswer }: { ask: (q: string) => Promise<string>; question: string; onAnswer?: (a: string) => void }) {
  const [shown, setShown] = useState('none yet');
  useLiveEffect(
    (ifLive) => {
      void ask(question).then(
        ifLive((a) => {
          setShown(a);
          onAnswer?.(a);
        }),
      );
    },
    [ask, question, onAnswer],
  );
  return <p>{shown}</p>;
}

test('an answer for the inputs before is dropped when it comes after the answer for the inputs now', async () => {
  const { ask, answer } = answers();
  const view = render(<Answer ask={ask} question="January" />);
  view.rerender(<Answer ask={ask} question="February" />);
  expect(ask.mock.calls.map(([q]) => q)).toEqual(['January', 'February']);

  await answer('February', 'February costs 2 calls');
  expect(screen.getByText('February costs 2 calls')).toBeTruthy();
  await answer('January', 'January costs 5 calls');
  expect(screen.getByText('February costs 2 calls')).toBeTruthy();
  expect(screen.queryByText('January costs 5 calls')).toBeNull();
});

test('an answer that comes after the screen went does nothing', async () => {
  const { ask, answer } = answers();
  const onAnswer = jest.fn();
  const view = render(<Answer ask={ask} question="January" onAnswer={onAnswer} />);
  view.unmount();
  await answer('January', 'January costs 5 calls');
  expect(onAnswer).not.toHaveBeenCalled();
});

test("the effect's own clean-up runs when the inputs change and when the screen goes", () => {
  const stops: string[] = [];
  function Subscribed({ to }: { to: string }) {
    useLiveEffect(() => () => stops.push(to), [to]);
    return null;
  }
  const view = render(<Subscribed to="meter A" />);
  view.rerender(<Subscribed to="meter B" />);
  expect(stops).toEqual(['meter A']);
  view.unmount();
  expect(stops).toEqual(['meter A', 'meter B']);
});
