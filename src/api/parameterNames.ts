import { ApiError } from './errors';

// The name of a required parameter the spec does not show (the category of /aggregations/total and of
// /parties/merchants), learned from the API itself. The spec guarantees that a required parameter that is
// absent is 400 parameter_missing with `param` naming it. So the client sends the name
// docs/api-decisions.md chose; if the API answers that another parameter is missing, that is the name it
// reads, and the request is sent again under it. Learned once per base URL and kept with it: the first
// request of an endpoint goes alone while its name is unconfirmed, so learning costs one call at most,
// whatever number of cells ask at once. A kept name the API refuses the same way is learned again (one call
// more), and a name is only ever learned if it is short, plain, and neither a header's, a credential's nor
// a piece of the key (an API answering with the key as `param` must not get it into URLs or storage).

/** Where learned names are kept between sessions (per connection); optional. */
export interface LearnedNamesStore {
  load(): Promise<Record<string, string> | null | undefined>;
  save(names: Record<string, string>): Promise<void>;
}

/** Names a learned parameter may never take: headers' and credentials' (sent in a URL, they could carry one). */
const NEVER = new Set(['authorization', 'proxy_authorization', 'cookie', 'set_cookie', 'host', 'origin', 'referer', 'api_key', 'apikey', 'key', 'token', 'access_token', 'bearer', 'password', 'secret']);

/** A parameter name the client will send and keep: short, plain, no header's or credential's name, no part of the key. */
export function acceptableName(name: string, apiKey: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(name) || NEVER.has(name.toLowerCase())) return false;
  const lower = name.toLowerCase();
  const key = apiKey.toLowerCase();
  // Any 8 characters of the key, in any case: a name that carries them would put the key in URLs and storage.
  for (let i = 0; i + 8 <= key.length; i++) if (lower.includes(key.slice(i, i + 8))) return false;
  return true;
}

export class ParameterNames {
  private readonly names = new Map<string, string>();
  private readonly confirmed = new Set<string>();
  private readonly probes = new Map<string, Promise<unknown>>();
  private loaded?: Promise<void>;

  /**
   * Names are learned from, and kept for, the API at `baseUrl`: a connection to another base URL starts
   * from the documented names (stored names of another base are dropped at the first save).
   */
  constructor(
    private readonly store?: LearnedNamesStore,
    private readonly api: { baseUrl: string; apiKey: string } = { baseUrl: '', apiKey: '' },
  ) {}

  private load(): Promise<void> {
    this.loaded ??= (async () => {
      try {
        const saved = await this.store?.load();
        const prefix = `${this.api.baseUrl} `;
        for (const [stored, name] of Object.entries(saved ?? {})) {
          if (!stored.startsWith(prefix) || typeof name !== 'string' || !acceptableName(name, this.api.apiKey)) continue;
          const slot = stored.slice(prefix.length);
          this.names.set(slot, name);
          this.confirmed.add(slot);
        }
      } catch {
        // Nothing kept (or storage unreadable): the name is learned again, for one call at most.
      }
    })();
    return this.loaded;
  }

  /** The name in use for `slot` (`<path> <standard name>`). */
  nameOf(path: string, standard: string): string {
    return this.names.get(slotOf(path, standard)) ?? standard;
  }

  /**
   * Runs `send(name)` with the parameter's name for this API. `others` are the other parameters sent
   * (a missing one among them is not about this parameter).
   */
  async send<T>(path: string, standard: string, others: readonly string[], send: (name: string) => Promise<T>): Promise<T> {
    await this.load();
    const slot = slotOf(path, standard);
    for (;;) {
      if (this.confirmed.has(slot)) return this.sendKnown(slot, standard, others, send);
      const probe = this.probes.get(slot);
      if (!probe) break;
      await probe.catch(() => undefined);
    }
    const probe = this.probe(slot, standard, others, send);
    this.probes.set(slot, probe);
    try {
      return await probe;
    } finally {
      this.probes.delete(slot);
    }
  }

  /** A confirmed name the API now says is not what it reads (it changed, or was another API's): learned again. */
  private async sendKnown<T>(slot: string, standard: string, others: readonly string[], send: (name: string) => Promise<T>): Promise<T> {
    const name = this.names.get(slot) ?? standard;
    try {
      return await send(name);
    } catch (error) {
      const learned = this.learnedFrom(error, name, others);
      if (learned === undefined) throw error;
      const answer = await send(learned);
      this.confirm(slot, learned);
      return answer;
    }
  }

  private async probe<T>(slot: string, standard: string, others: readonly string[], send: (name: string) => Promise<T>): Promise<T> {
    const name = this.names.get(slot) ?? standard;
    try {
      const answer = await send(name);
      this.confirm(slot, name);
      return answer;
    } catch (error) {
      const learned = this.learnedFrom(error, name, others);
      if (learned === undefined) {
        // A refusal of the value under this name (a 404 naming it) confirms the name all the same.
        if (error instanceof ApiError && error.param === name) this.confirm(slot, name);
        throw error;
      }
      const answer = await send(learned);
      this.confirm(slot, learned);
      return answer;
    }
  }

  /** The parameter's real name, when `error` says a parameter we did not send is missing and the name is one we may send. */
  private learnedFrom(error: unknown, sent: string, others: readonly string[]): string | undefined {
    const param = missingParam(error, sent, others);
    return param !== undefined && acceptableName(param, this.api.apiKey) ? param : undefined;
  }

  private confirm(slot: string, name: string): void {
    const known = this.confirmed.has(slot) && (this.names.get(slot) ?? '') === name;
    this.names.set(slot, name);
    this.confirmed.add(slot);
    if (known || !this.store) return;
    const stored = Object.fromEntries([...this.names].map(([s, n]) => [`${this.api.baseUrl} ${s}`, n]));
    void this.store.save(stored).catch(() => undefined);
  }
}

function slotOf(path: string, standard: string): string {
  return `${path} ${standard}`;
}

/** The parameter `error` says is missing, when it is not one we sent. */
function missingParam(error: unknown, sent: string, others: readonly string[]): string | undefined {
  if (!(error instanceof ApiError) || error.status !== 400 || error.code !== 'parameter_missing') return undefined;
  const param = error.param;
  if (!param || param === sent || others.includes(param)) return undefined;
  return param;
}
