// The add-in says how fresh an answer it needs with standard request directives (RFC 9111 5.2.1):
// `no-cache` (go to the API) or `max-age=<s>` (an answer up to s seconds old will do). The contract with
// the add-in makes an absent header mean no-cache: a client that says nothing gets the API.

export type Freshness = { kind: 'no-cache' } | { kind: 'max-age'; seconds: number };

export function requestFreshness(header: string | string[] | undefined): Freshness {
  const text = Array.isArray(header) ? header.join(',') : header;
  if (!text) return { kind: 'no-cache' };
  let maxAge: number | undefined;
  for (const raw of text.split(',')) {
    const [name, value] = raw.trim().split('=', 2).map((s) => s.trim());
    const directive = name.toLowerCase();
    if (directive === 'no-cache' || directive === 'no-store') return { kind: 'no-cache' };
    if (directive === 'max-age') {
      const seconds = /^"?(\d+)"?$/.exec(value ?? '');
      // A malformed max-age is read as the strictest one (RFC 9111 4.2.1 treats it as stale).
      if (!seconds) return { kind: 'no-cache' };
      maxAge = Math.min(maxAge ?? Number.MAX_SAFE_INTEGER, Number(seconds[1]));
    }
  }
  return maxAge === undefined ? { kind: 'no-cache' } : { kind: 'max-age', seconds: maxAge };
}
