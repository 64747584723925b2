// jsdom for React component tests, plus Node's own fetch: component tests drive the real client against a
// real sandbox over HTTP, and jest's jsdom environment hides Node's fetch.
const JSDOMEnvironment = require('jest-environment-jsdom').TestEnvironment;
// The declaration class jsdom's getComputedStyle builds its answer with (jsdom depends on this very copy).
const { CSSStyleDeclaration } = require('cssstyle');

// jsdom's getComputedStyle builds its answer one setProperty at a time over every matching rule (the
// browser's default style sheet included), and cssstyle 2.3 serialises the whole declaration again on each
// set (_setProperty hands cssText to a change callback this declaration does not even have): quadratic in
// the declarations matched. Every *ByRole query (isInaccessible) and every user-event pointer check calls it
// for an element and its ancestors, which made it a third of a pane test's time. While it builds, the
// serialisation is skipped; the cascade and the declaration it returns are jsdom's own.
const CSS_TEXT = Object.getOwnPropertyDescriptor(CSSStyleDeclaration.prototype, 'cssText');
const CSS_TEXT_UNREAD = { ...CSS_TEXT, get: () => '' };

function withoutReserialising(getComputedStyle) {
  return function computedStyle(element, pseudoElement) {
    Object.defineProperty(CSSStyleDeclaration.prototype, 'cssText', CSS_TEXT_UNREAD);
    try {
      return getComputedStyle.call(this, element, pseudoElement);
    } finally {
      Object.defineProperty(CSSStyleDeclaration.prototype, 'cssText', CSS_TEXT);
    }
  };
}

class JsdomWithFetch extends JSDOMEnvironment {
  async setup() {
    await super.setup();
    for (const name of ['fetch', 'Request', 'Response', 'Headers', 'AbortController', 'AbortSignal', 'TextEncoder', 'TextDecoder', 'structuredClone', 'ReadableStream']) {
      if (globalThis[name] !== undefined) this.global[name] = globalThis[name];
    }
    this.global.getComputedStyle = withoutReserialising(this.global.getComputedStyle);
    // Node's crypto.randomUUID for idempotency keys.
    if (!this.global.crypto?.randomUUID) {
      Object.defineProperty(this.global, 'crypto', { value: globalThis.crypto, configurable: true });
    }
  }
}

module.exports = JsdomWithFetch;
