// Entry of the workbench page (workbench.html, served next to the add-in by `npm start`):
//   https://localhost:3000/workbench.html                      against the local sandbox (the build's address)
//   ...workbench.html?sandbox=http://127.0.0.1:4020/api/v1     another sandbox on this computer (the page's
//                                                              Content-Security-Policy allows loopback only,
//                                                              and the API a build names with --env api=)
//   ...workbench.html?storage=memory                           add-in storage in memory (gone on reload)
//
// Import order matters: the CustomFunctions stand-in must exist before functions.ts runs its
// CustomFunctions.associate calls (appended by the metadata plugin at build time).
import './customFunctionsStub';
import '../functions/functions';

import { createRoot } from 'react-dom/client';
import { registry } from './customFunctionsStub';
import { createWorkbench, loadFunctionMetadata } from './host';
import { MemoryKeyValue } from './stores';
import { Workbench } from './Workbench';

const params = new URLSearchParams(window.location.search);
const baseUrl = params.get('sandbox') ?? undefined;
const keyValue = params.get('storage') === 'memory' ? new MemoryKeyValue() : window.localStorage;

// functions.json is built next to this bundle (workbench/functions.json): parameter lists and streaming.
const metadataUrl = new URL('functions.json', (document.currentScript as HTMLScriptElement | null)?.src ?? new URL('workbench/', window.location.href)).href;
const world = createWorkbench({ baseUrl, keyValue, metadata: loadFunctionMetadata(metadataUrl) });

// For debugging in the browser's console (never used by the tests, which act through the page).
(window as unknown as { workbench: unknown }).workbench = world;

const reset = () => {
  world.storage.clear();
  window.location.reload();
};

const container = document.getElementById('root');
if (!container) throw new Error('workbench.html has no #root element');
createRoot(container).render(
  <Workbench book={world.book} engine={world.engine} services={world.services} functionCount={registry.size} onReset={reset} />,
);
