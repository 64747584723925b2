// jsdom for React component tests, plus Node's own fetch: component tests drive the real client against a
// real sandbox over HTTP, and jest's jsdom environment hides Node's fetch.
const JSDOMEnvironment = require('jest-environment-jsdom').TestEnvironment;

class JsdomWithFetch extends JSDOMEnvironment {
  async setup() {
    await super.setup();
    for (const name of ['fetch', 'Request', 'Response', 'Headers', 'AbortController', 'AbortSignal', 'TextEncoder', 'TextDecoder', 'structuredClone', 'ReadableStream']) {
      if (globalThis[name] !== undefined) this.global[name] = globalThis[name];
    }
    // Node's crypto.randomUUID for idempotency keys.
    if (!this.global.crypto?.randomUUID) {
      Object.defineProperty(this.global, 'crypto', { value: globalThis.crypto, configurable: true });
    }
  }
}

module.exports = JsdomWithFetch;
