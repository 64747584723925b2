/**
 * Which requirement set each Excel member belongs to, read from Microsoft's own files: every gated member of
 * the client library calls `_throwIfApiNotSupported("Class.member", set, version, host)` before it queues
 * anything, and the packaged host files carry those calls (minified: `w("Range.group",v,"1.10",O)`, with the
 * default set "ExcelApi" in a variable). A member with no such call is available wherever the object it
 * belongs to can be reached (ExcelApi 1.1, or the set of the member that returned the object).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { HostProfile } from './officeJs';

export const DIST = path.join(__dirname, '../../node_modules/@microsoft/office-js/dist');
/** The host files Office loads for Excel on Windows, on the Mac and on the web. */
export const HOST_FILES = { Windows: 'excel-win32-16.01.js', Mac: 'excel-mac-16.00.js', web: 'excel-web-16.00.js' } as const;

export interface Requirement {
  set: string;
  version: string;
}

/** Members that newer office.js builds (the CDN's) add and the package lacks, with the set their typings give. */
export const NEWER_CLIENT_MEMBERS: Record<string, Requirement> = {
  // @types/office-js: Range.valuesAsJson "[Api set: ExcelApi 1.16]".
  'Range.valuesAsJson': { set: 'ExcelApi', version: '1.16' },
};

const cache = new Map<string, Map<string, Requirement>>();

/** Every `_throwIfApiNotSupported(member, set, version, host)` of one packaged file, by member. */
export function readDeclarations(file: string): Map<string, Requirement> {
  const hit = cache.get(file);
  if (hit) return hit;
  const src = readFileSync(path.join(DIST, file), 'utf8');
  // Identifiers assigned a string ("v=\"ExcelApi\""), by name, in source order: the minifier keeps the
  // default set name in a variable that the declarations after it use.
  const assigned = new Map<string, { at: number; value: string }[]>();
  for (const m of src.matchAll(/([\w$]+)\s*=\s*"([A-Za-z]\w*)"/g)) {
    const list = assigned.get(m[1]) ?? [];
    list.push({ at: m.index!, value: m[2] });
    assigned.set(m[1], list);
  }
  const lastBefore = (name: string, at: number): string | undefined => {
    const list = assigned.get(name) ?? [];
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].at < at) lo = mid + 1;
      else hi = mid;
    }
    return list[lo - 1]?.value;
  };
  const out = new Map<string, Requirement>();
  const call = /\b[\w$]+\(\s*"([A-Za-z_]\w*\.\w+)"\s*,\s*(?:"(\w+)"|([\w$]+))\s*,\s*"(\d+\.\d+)"\s*,\s*[\w$]+\s*\)/g;
  for (const m of src.matchAll(call)) {
    const set = m[2] ?? lastBefore(m[3], m.index!);
    if (set) out.set(m[1], { set, version: m[4] });
  }
  cache.set(file, out);
  return out;
}

/** The set a member needs: its declaration, or a newer client's, or none (reachable means available). */
export function requirementOf(member: string, declarations: Map<string, Requirement>): Requirement | undefined {
  return declarations.get(member) ?? NEWER_CLIENT_MEMBERS[member];
}

/** The requirement sets manifest.xml declares (<Set Name MinVersion>), by lower-case name, as a host profile lists them. */
export function manifestRequirements(): Record<string, string> {
  const xml = readFileSync(path.join(__dirname, '../../manifest.xml'), 'utf8').replace(/<!--[\s\S]*?-->/g, '');
  const sets: Record<string, string> = {};
  for (const m of xml.matchAll(/<Set\s+Name="([^"]+)"\s+MinVersion="([^"]+)"\s*\/>/g)) sets[m[1].toLowerCase()] = m[2];
  return sets;
}

/** The highest version of `set` any of `members` needs (by the declarations), or undefined when none needs it. */
export function highestNeeded(set: string, members: Iterable<string>, declarations: Map<string, Requirement>): string | undefined {
  let highest: string | undefined;
  for (const member of members) {
    const req = requirementOf(member, declarations);
    if (req?.set === set && (highest === undefined || versionAtLeast(req.version, highest))) highest = req.version;
  }
  return highest;
}

function versionAtLeast(have: string, need: string): boolean {
  const [a, b] = have.split('.').map(Number);
  const [c, d] = need.split('.').map(Number);
  return a > c || (a === c && b >= d);
}

export function hostHas(host: HostProfile, req: Requirement): boolean {
  const have = host.sets[req.set.toLowerCase()];
  return have !== undefined && versionAtLeast(have, req.version);
}

/** Members called on a host that the host lacks, with the set each needs ("TableRowCollection.deleteRowsAt needs ExcelApiOnline 1.1"). */
export function unavailableOn(host: HostProfile, members: Iterable<string>, declarations: Map<string, Requirement>): string[] {
  const missing: string[] = [];
  for (const member of members) {
    const req = requirementOf(member, declarations);
    if (req && !hostHas(host, req)) missing.push(`${member} needs ${req.set} ${req.version}`);
  }
  return missing.sort();
}
