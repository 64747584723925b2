import { answeredAt, cacheControlOf, readTeamCount, servedFromTeamCache } from '../../src/api/teamHeaders';

// The gateway's headers (docs/api-decisions.md, "The team's gateway"), read strictly: a header that is not
// exactly what the contract says is ignored as a whole, so the Usage tab never shows a wrong count.

function lookup(headers: Record<string, string>) {
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return (name: string) => lower.get(name.toLowerCase()) ?? null;
}

describe('readTeamCount', () => {
  it('reads the count, its month and the uncertainty', () => {
    expect(readTeamCount(lookup({ 'X-Fin-Team-Calls': '41', 'X-Fin-Team-Month': '2026-11' }))).toEqual({ month: '2026-11', count: 41, uncertain: false });
    expect(readTeamCount(lookup({ 'X-Fin-Team-Calls': '0', 'X-Fin-Team-Month': '2026-01', 'X-Fin-Team-Calls-Uncertain': '1' }))).toEqual({
      month: '2026-01',
      count: 0,
      uncertain: true,
    });
  });

  it('is null for an answer without the headers (the API itself, or a 401 of the gateway)', () => {
    expect(readTeamCount(lookup({}))).toBeNull();
    expect(readTeamCount(lookup({ 'X-Fin-Team-Calls': '41' }))).toBeNull();
    expect(readTeamCount(lookup({ 'X-Fin-Team-Month': '2026-11' }))).toBeNull();
  });

  it.each([
    ['a duplicate joined by fetch', '41, 42', '2026-11'],
    ['a negative count', '-1', '2026-11'],
    ['a fraction', '41.5', '2026-11'],
    ['an exponent', '4e1', '2026-11'],
    ['a hex count', '0x29', '2026-11'],
    ['an empty count', '', '2026-11'],
    ['a count past safe integers', '9999999999999999', '2026-11'],
    ['month 13', '41', '2026-13'],
    ['month 00', '41', '2026-00'],
    ['a date, not a month', '41', '2026-11-01'],
    ['a duplicate month', '41', '2026-11, 2026-12'],
  ])('ignores %s', (_what, calls, month) => {
    expect(readTeamCount(lookup({ 'X-Fin-Team-Calls': calls, 'X-Fin-Team-Month': month }))).toBeNull();
  });

  it('ignores the count when the uncertainty is anything but "1" (a wrong "certain" is a wrong count)', () => {
    for (const value of ['0', 'true', '', '1, 1']) {
      expect(readTeamCount(lookup({ 'X-Fin-Team-Calls': '41', 'X-Fin-Team-Month': '2026-11', 'X-Fin-Team-Calls-Uncertain': value }))).toBeNull();
    }
  });
});

describe('answeredAt', () => {
  const now = Date.parse('2026-11-18T19:30:00.500Z');

  it('is the gateway Date minus Age for an answer of the team cache', () => {
    expect(answeredAt(lookup({ Age: '120', Date: 'Wed, 18 Nov 2026 19:30:00 GMT' }), now)).toBe(Date.parse('2026-11-18T19:28:00Z'));
  });

  it('never puts the Date after this clock', () => {
    expect(answeredAt(lookup({ Age: '60', Date: 'Wed, 18 Nov 2026 19:40:00 GMT' }), now)).toBe(now - 60_000);
  });

  it('counts back from this clock without a readable Date', () => {
    expect(answeredAt(lookup({ Age: '60' }), now)).toBe(now - 60_000);
    expect(answeredAt(lookup({ Age: '60', Date: 'yesterday' }), now)).toBe(now - 60_000);
  });

  it('is null for a fresh answer or an Age that is not whole seconds', () => {
    expect(answeredAt(lookup({}), now)).toBeNull();
    expect(answeredAt(lookup({ Age: '0', Date: 'Wed, 18 Nov 2026 19:30:00 GMT' }), now)).toBeNull();
    for (const age of ['-5', '1.5', 'soon', '10, 20']) expect(answeredAt(lookup({ Age: age }), now)).toBeNull();
  });
});

describe('cacheControlOf', () => {
  it('asks the API unless a GET says how old an answer may be', () => {
    expect(cacheControlOf('GET', undefined)).toBe('no-cache');
    expect(cacheControlOf('GET', 0)).toBe('no-cache');
    expect(cacheControlOf('GET', 3600)).toBe('max-age=3600');
    expect(cacheControlOf('POST', 3600)).toBe('no-cache');
    expect(cacheControlOf('PATCH', 3600)).toBe('no-cache');
    expect(cacheControlOf('DELETE', 3600)).toBe('no-cache');
  });
});

describe('servedFromTeamCache', () => {
  it("is true only for the gateway's own entry with hit (RFC 9211)", () => {
    expect(servedFromTeamCache(lookup({ 'Cache-Status': 'fin-gateway; hit' }))).toBe(true);
    expect(servedFromTeamCache(lookup({ 'Cache-Status': 'nginx; fwd=miss, fin-gateway; hit' }))).toBe(true);
    expect(servedFromTeamCache(lookup({ 'Cache-Status': 'fin-gateway; fwd=miss' }))).toBe(false);
    expect(servedFromTeamCache(lookup({ 'Cache-Status': 'fin-gateway; fwd=request' }))).toBe(false);
    expect(servedFromTeamCache(lookup({ 'Cache-Status': 'other-cache; hit' }))).toBe(false);
    expect(servedFromTeamCache(lookup({}))).toBe(false);
  });
});
