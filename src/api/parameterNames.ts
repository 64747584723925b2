import { ApiError } from './errors';

// The name of a required parameter the spec does not show (the category of /aggregations/total and of
// /parties/merchants), learned from the API itself. The spec guarantees that a required parameter that is
// absent is 400 parameter_missing with `param` naming it. So the client sends the name
// docs/api-decisions.md chose; if the API answers that another parameter is missing, that is the name it
// reads, and the request is sent again under it. Learned once per connection and kept: the first request
// of an endpoint goes alone while its name is unconfirmed, so learning costs one call at most, whatever
// number of cells ask at once.

/** Where learned names are kept between sessions (per connection); optional. */
export interface LearnedNamesStore {
  load(): Promise<Record<string, string> | null | undefined>;
  save(names: Record<string, string>): Promise<void>;
}

export class ParameterNames {
  private readonly names = new Map<string, string>();
  private readonly confirmed = new Set<string>();
  private readonly probes = new Map<string, Promise<unknown>>();
  private loaded?: Promise<void>;

  constructor(private readonly store?: LearnedNamesStore) {}

  private load(): Promise<void> {
    this.loaded ??= (async () => {
      try {
        const saved = await this.store?.load();
        for (const [slot, name] of Object.entries(saved ?? {})) {
          if (typeof name !== 'string' || name === '') continue;
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
      if (this.confirmed.has(slot)) return send(this.names.get(slot) ?? standard);
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

  private async probe<T>(slot: string, standard: string, others: readonly string[], send: (name: string) => Promise<T>): Promise<T> {
    const name = this.names.get(slot) ?? standard;
    try {
      const answer = await send(name);
      this.confirm(slot, name);
      return answer;
    } catch (error) {
      const learned = learnedFrom(error, name, others);
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

  private confirm(slot: string, name: string): void {
    const known = this.confirmed.has(slot) && (this.names.get(slot) ?? '') === name;
    this.names.set(slot, name);
    this.confirmed.add(slot);
    if (!known && this.store) void this.store.save(Object.fromEntries(this.names)).catch(() => undefined);
  }
}

function slotOf(path: string, standard: string): string {
  return `${path} ${standard}`;
}

/** The parameter's real name, when `error` says a parameter we did not send is missing. */
function learnedFrom(error: unknown, sent: string, others: readonly string[]): string | undefined {
  if (!(error instanceof ApiError) || error.status !== 400 || error.code !== 'parameter_missing') return undefined;
  const param = error.param;
  if (!param || param === sent || others.includes(param)) return undefined;
  return param;
}
