// The workbench as the tests drive it: the add-in's real FIN functions registered as the build registers
// them, the shared runtime over the workbench's RuntimeHost, against a sandbox, with the requests it sends
// counted. Import src/workbench/customFunctionsStub before this module (the CustomFunctions global).
import { createWorkbench, type WorkbenchWorld } from '../../src/workbench/host';
import { registerFinFunctions } from './finFunctions';
import type { TestSandbox } from './sandbox';

export interface CountedWorkbench extends WorkbenchWorld {
  /** HTTP requests its runtime has sent so far. */
  sent(): number;
}

export function sandboxWorkbench(sb: Pick<TestSandbox, 'baseUrl'>): CountedWorkbench {
  let sent = 0;
  const world = createWorkbench({
    baseUrl: sb.baseUrl,
    metadata: registerFinFunctions().then((r) => r.info),
    fetch: (input, init) => {
      sent += 1;
      return fetch(input, init);
    },
  });
  return { ...world, sent: () => sent };
}
