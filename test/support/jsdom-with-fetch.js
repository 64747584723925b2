// jsdom for React component tests, plus Node's own fetch: component tests drive the real client against a
// real sandbox over HTTP, and jest's jsdom environment hides Node's fetch.
const cssom = require('cssom');

// Every getComputedStyle in jsdom matches the element against the whole default style sheet of a browser
// (120 rules) before the page's own: most of what a *ByRole query costs. What the tests' queries and clicks
// read from it is whether an element is hidden (display: none, visibility) or takes no pointer events, so
// jsdom is given that sheet reduced to the rules that set those (14: head, script, template, [hidden],
// dialog:not([open]), ...). It must be in place before jsdom loads: jsdom reads the sheet when it loads.
const DEFAULT_SHEET = require.resolve('jsdom/lib/jsdom/browser/default-stylesheet.js');
const HIDING = ['display', 'visibility', 'pointer-events'];
const fullSheet = require(DEFAULT_SHEET);
require.cache[DEFAULT_SHEET].exports = reducedSheet(fullSheet);

function reducedSheet(text) {
  const decides = (rule) =>
    rule.style && HIDING.some((name) => (name === 'display' ? rule.style.getPropertyValue(name) === 'none' : rule.style.getPropertyValue(name) !== ''));
  return cssom.parse(text).cssRules.filter(decides).map((rule) => rule.cssText).join('\n');
}

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
