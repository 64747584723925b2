/**
 * @jest-environment jsdom
 */
// Offline checks of manifest.xml (office-addin-manifest validate needs an online service). The XML is parsed
// with jsdom's strict, namespace-aware DOMParser (jest-environment-jsdom is a direct dev dependency), and
// with `office-addin-manifest info`, the parser Office's own tooling uses.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEV_BASE, DEV_ORIGIN, normalizeBaseUrl, rewriteManifestUrls, stripXmlComments } from '../../scripts/manifest-url';

const root = path.resolve(__dirname, '..', '..');
const manifestPath = path.join(root, 'manifest.xml');
const manifestXml = fs.readFileSync(manifestPath, 'utf8');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };

const NS = {
  app: 'http://schemas.microsoft.com/office/appforoffice/1.1',
  bt: 'http://schemas.microsoft.com/office/officeappbasictypes/1.0',
  ov: 'http://schemas.microsoft.com/office/taskpaneappversionoverrides',
  xsi: 'http://www.w3.org/2001/XMLSchema-instance',
  xmlns: 'http://www.w3.org/2000/xmlns/',
};

function parse(xml: string): Document {
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  const error = doc.getElementsByTagName('parsererror')[0];
  if (error) throw new Error(`manifest.xml is not well-formed XML: ${error.textContent}`);
  return doc;
}

const doc = parse(manifestXml);
const all = (ns: string, name: string, scope: Document | Element = doc) => Array.from(scope.getElementsByTagNameNS(ns, name));
const one = (ns: string, name: string, scope: Document | Element = doc) => {
  const found = all(ns, name, scope);
  if (found.length !== 1) throw new Error(`expected exactly one <${name}>, found ${found.length}`);
  return found[0];
};
const xsiType = (el: Element) => el.getAttributeNS(NS.xsi, 'type');
const childElements = (el: Element) => Array.from(el.children);

/** Resources by collection: id -> DefaultValue. */
function resources(kind: 'Images' | 'Urls' | 'ShortStrings' | 'LongStrings'): Map<string, string> {
  const map = new Map<string, string>();
  for (const item of childElements(one(NS.bt, kind))) {
    const id = item.getAttribute('id') ?? '';
    if (map.has(id)) throw new Error(`resource id ${id} is defined twice in ${kind}`);
    map.set(id, item.getAttribute('DefaultValue') ?? '');
  }
  return map;
}
const images = resources('Images');
const urls = resources('Urls');
const shortStrings = resources('ShortStrings');
const longStrings = resources('LongStrings');

/** Which resource collection each element that takes a resid refers to. */
const RESID_KINDS: Record<string, Map<string, string>> = {
  Image: images,
  SourceLocation: urls,
  Runtime: urls,
  FunctionFile: urls,
  LearnMoreUrl: urls,
  Label: shortStrings,
  Title: shortStrings,
  Namespace: shortStrings,
  Description: longStrings,
};

/** Every URL in the manifest: attribute values and element texts containing "://" (not xmlns declarations). */
function urlsIn(d: Document): { where: string; url: string }[] {
  const found: { where: string; url: string }[] = [];
  for (const el of Array.from(d.getElementsByTagName('*'))) {
    for (const attr of Array.from(el.attributes)) {
      if (attr.namespaceURI === NS.xmlns || attr.name === 'xmlns' || attr.name.startsWith('xmlns:')) continue;
      if (attr.value.includes('://')) found.push({ where: `<${el.localName} ${attr.name}>`, url: attr.value });
    }
    if (el.children.length === 0 && (el.textContent ?? '').includes('://')) {
      found.push({ where: `<${el.localName}>`, url: (el.textContent ?? '').trim() });
    }
  }
  return found;
}

function pngSize(file: string): { width: number; height: number } {
  const bytes = fs.readFileSync(file);
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!signature.every((b, i) => bytes[i] === b)) throw new Error(`${file} is not a PNG`);
  if (bytes.toString('ascii', 12, 16) !== 'IHDR') throw new Error(`${file} has no IHDR chunk first`);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function manifestInfo(file: string): string {
  const cli = require.resolve('office-addin-manifest/cli.js');
  const res = spawnSync(process.execPath, [cli, 'info', file], { encoding: 'utf8', timeout: 30000 });
  // The CLI exits 0 even when it fails: judge by its output.
  return `${res.stdout}\n${res.stderr}`;
}

const sourceLocation = one(NS.app, 'SourceLocation', one(NS.app, 'DefaultSettings')).getAttribute('DefaultValue') ?? '';

describe('manifest.xml', () => {
  test('parses, and office-addin-manifest reads it', () => {
    const rootEl = doc.documentElement;
    expect(rootEl.localName).toBe('OfficeApp');
    expect(rootEl.namespaceURI).toBe(NS.app);
    expect(xsiType(rootEl)).toBe('TaskPaneApp');
    const id = one(NS.app, 'Id').textContent ?? '';
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
    expect(one(NS.app, 'Version').textContent).toBe(`${pkg.version}.0`);
    expect(one(NS.app, 'DisplayName').getAttribute('DefaultValue')).toBe('Financial Reporting');
    expect(one(NS.app, 'ProviderName').textContent).not.toBe('');
    expect(one(NS.app, 'Description').getAttribute('DefaultValue')).not.toBe('');
    expect(all(NS.app, 'Host').map((h) => h.getAttribute('Name'))).toEqual(['Workbook']);

    const vo = one(NS.ov, 'VersionOverrides');
    expect(xsiType(vo)).toBe('VersionOverridesV1_0'); // the only version for task pane add-ins

    const info = manifestInfo(manifestPath);
    expect(info).toContain(`Id: ${id}`);
    expect(info).toContain('Name: Financial Reporting');
    expect(info).toContain('Hosts: Workbook');
    expect(info).toContain(`Source Location: ${sourceLocation}`);
  });

  // What the add-in needs, so Office loads it only where it works (learn.microsoft.com/javascript/api/
  // requirement-sets): the shared runtime; CustomFunctionsRuntime 1.2, for CustomFunctions.Error with a
  // message (every FIN error says what is wrong: src/functions/functions.ts, toCellError); ExcelApi 1.10, the
  // highest set the gateway calls without a check (Range.group, test/excel/contract.test.ts). Every host with
  // CustomFunctionsRuntime 1.2 and SharedRuntime 1.1 has ExcelApi 1.10 already (Windows from Version 2002,
  // Office 2021, the Mac from 16.35, the web), so declaring it shuts out no one who could run the add-in.
  test('requires SharedRuntime 1.1, CustomFunctionsRuntime 1.2 and ExcelApi 1.10', () => {
    const sets = new Map(all(NS.app, 'Set').map((s) => [s.getAttribute('Name'), s.getAttribute('MinVersion')]));
    expect(Object.fromEntries(sets)).toEqual({ SharedRuntime: '1.1', CustomFunctionsRuntime: '1.2', ExcelApi: '1.10' });
    const functions = fs.readFileSync(path.join(root, 'src/functions/functions.ts'), 'utf8');
    expect(functions).toMatch(/new CustomFunctions\.Error\(code, fin\.message\)/);
  });

  test('every resid is defined in Resources, in the right collection, and every resource is used', () => {
    const used = new Set<string>();
    const referencing = Array.from(doc.getElementsByTagName('*')).filter((el) => el.hasAttribute('resid'));
    expect(referencing.length).toBeGreaterThan(10);
    for (const el of referencing) {
      const resid = el.getAttribute('resid') ?? '';
      const kind = RESID_KINDS[el.localName];
      if (!kind) throw new Error(`<${el.localName} resid="${resid}">: unknown kind of reference; extend RESID_KINDS`);
      if (!kind.has(resid)) throw new Error(`<${el.localName} resid="${resid}"> is not defined in the expected Resources collection`);
      used.add(resid);
    }
    const defined = [images, urls, shortStrings, longStrings].flatMap((m) => Array.from(m.keys()));
    expect(defined.filter((id) => !used.has(id))).toEqual([]); // no unused resources
    expect(defined.filter((id) => id.length > 32)).toEqual([]);
    // Office's limits: ShortStrings up to 125 characters, LongStrings up to 250; none empty.
    expect(Array.from(shortStrings).filter(([, v]) => v === '' || v.length > 125)).toEqual([]);
    expect(Array.from(longStrings).filter(([, v]) => v === '' || v.length > 250)).toEqual([]);
  });

  test('every URL is https and under the SourceLocation origin', () => {
    expect(sourceLocation.startsWith(DEV_BASE)).toBe(true);
    const origin = new URL(sourceLocation).origin;
    expect(origin).toBe(DEV_ORIGIN);
    const found = urlsIn(doc);
    expect(found.length).toBeGreaterThan(8);
    for (const { where, url } of found) {
      const parsed = new URL(url);
      expect(`${where} ${parsed.protocol}`).toBe(`${where} https:`);
      // A bare origin only in AppDomain; everything else must be under the base the production rewrite moves.
      if (where === '<AppDomain>') expect(url).toBe(origin);
      else expect(`${where} ${url.startsWith(DEV_BASE)}`).toBe(`${where} true`);
    }
  });

  // The sizes Microsoft's manifest reference asks for (learn.microsoft.com/javascript/api/manifest/iconurl,
  // .../highresolutioniconurl, .../icon): a task pane add-in's IconUrl is 32x32 and HighResolutionIconUrl
  // 64x64; a ribbon <Icon> needs 16, 32 and 80 and supports 20, 24, 40, 48 and 64.
  const ICON_URL_SIZE = 32;
  const HIGH_RESOLUTION_ICON_URL_SIZE = 64;
  const RIBBON_REQUIRED = [16, 32, 80];
  const RIBBON_SUPPORTED = [20, 24, 40, 48, 64];

  test('every icon exists under assets/ at the size the docs require, and assets/ holds no other icon', () => {
    const expectations: { url: string; size: number; where: string }[] = [
      { url: one(NS.app, 'IconUrl').getAttribute('DefaultValue') ?? '', size: ICON_URL_SIZE, where: 'IconUrl' },
      { url: one(NS.app, 'HighResolutionIconUrl').getAttribute('DefaultValue') ?? '', size: HIGH_RESOLUTION_ICON_URL_SIZE, where: 'HighResolutionIconUrl' },
    ];
    const iconElements = all(NS.ov, 'Icon');
    expect(iconElements.length).toBe(5); // the group and its four buttons
    for (const icon of iconElements) {
      const refs = all(NS.bt, 'Image', icon);
      // Every required size, and the optional ones too (Office picks the nearest for the display's scaling).
      expect(refs.map((r) => Number(r.getAttribute('size'))).sort((a, b) => a - b)).toEqual([...RIBBON_REQUIRED, ...RIBBON_SUPPORTED].sort((a, b) => a - b));
      for (const ref of refs) {
        const resid = ref.getAttribute('resid') ?? '';
        expectations.push({ url: images.get(resid) ?? '', size: Number(ref.getAttribute('size')), where: `bt:Image ${resid}` });
      }
    }
    for (const { url, size, where } of expectations) {
      expect(url.startsWith(`${DEV_BASE}assets/`)).toBe(true);
      const file = path.join(root, 'assets', url.slice(`${DEV_BASE}assets/`.length));
      expect(`${where}: ${fs.existsSync(file)}`).toBe(`${where}: true`);
      expect({ where, ...pngSize(file) }).toEqual({ where, width: size, height: size });
    }
    // scripts/make-icons.js draws exactly the icons the manifest uses.
    const referenced = new Set(expectations.map((e) => e.url.slice(`${DEV_BASE}assets/`.length)));
    const onDisk = fs.readdirSync(path.join(root, 'assets')).filter((f) => f.endsWith('.png'));
    expect(onDisk.sort()).toEqual([...referenced].sort());
  });

  test('custom functions use namespace FIN and the shared page', () => {
    const ext = all(NS.ov, 'ExtensionPoint').find((e) => xsiType(e) === 'CustomFunctions');
    expect(ext).toBeDefined();
    const ns = one(NS.ov, 'Namespace', ext!).getAttribute('resid') ?? '';
    expect(shortStrings.get(ns)).toBe('FIN');
    const loc = (name: string) => one(NS.ov, 'SourceLocation', one(NS.ov, name, ext!)).getAttribute('resid') ?? '';
    expect(loc('Page')).toBe('Shared.Url');
    expect(urls.get(loc('Metadata'))).toBe(`${DEV_BASE}functions.json`);
    expect(urls.get(loc('Script'))).toBe(`${DEV_BASE}functions.js`);
  });

  test('one shared runtime with a long lifetime: pane, functions and commands on the same page', () => {
    const runtimes = all(NS.ov, 'Runtime');
    expect(runtimes).toHaveLength(1);
    expect(runtimes[0].getAttribute('lifetime')).toBe('long');
    expect(runtimes[0].getAttribute('resid')).toBe('Shared.Url');
    expect(urls.get('Shared.Url')).toBe(sourceLocation);
    expect(one(NS.ov, 'FunctionFile').getAttribute('resid')).toBe('Shared.Url');
    // Every SourceLocation that is a page (not the functions script or metadata) is the shared one.
    const pages = all(NS.ov, 'SourceLocation')
      .map((s) => s.getAttribute('resid') ?? '')
      .filter((r) => !r.startsWith('Functions.'));
    expect(new Set(pages)).toEqual(new Set(['Shared.Url']));
  });

  test('the Home tab has the group with Open (task pane) and the three Refresh buttons, each a registered command', () => {
    const tab = one(NS.ov, 'OfficeTab');
    expect(tab.getAttribute('id')).toBe('TabHome');
    const groups = all(NS.ov, 'Group', tab);
    expect(groups).toHaveLength(1);
    const controls = childElements(groups[0]).filter((c) => c.localName === 'Control');
    const label = (c: Element) => shortStrings.get(childElements(c).find((e) => e.localName === 'Label')?.getAttribute('resid') ?? '');
    expect(controls.map((c) => [xsiType(c), label(c)])).toEqual([
      ['Button', 'Open'],
      ['Button', 'Refresh'],
      ['Button', 'Refresh sheet'],
      ['Button', 'Refresh selection'],
    ]);

    const [open, ...refreshes] = controls.map((c) => one(NS.ov, 'Action', c));
    expect(xsiType(open)).toBe('ShowTaskpane');
    // Kept: a shared runtime supports one task pane, and "any task pane without a <TaskpaneID> is considered a
    // different task pane" (learn.microsoft.com, "Configure your Office Add-in to use a shared runtime",
    // Multiple task panes); Office.addin.showAsTaskpane (the Refresh commands) opens this one.
    expect(one(NS.ov, 'TaskpaneId', open).textContent).toBe('FinReportingPane');
    expect(one(NS.ov, 'SourceLocation', open).getAttribute('resid')).toBe('Shared.Url');
    const commands = fs.readFileSync(path.join(root, 'src/commands/commands.ts'), 'utf8');
    for (const [refresh, name] of refreshes.map((r, i) => [r, ['refreshAll', 'refreshSheet', 'refreshSelection'][i]] as const)) {
      expect(xsiType(refresh)).toBe('ExecuteFunction');
      expect(one(NS.ov, 'FunctionName', refresh).textContent).toBe(name);
      // ... and the commands bundle registers that name.
      expect(commands).toMatch(new RegExp(`Office\\.actions\\.associate\\(\\s*['"]${name}['"]`));
    }
  });
});

describe('production manifest rewrite (scripts/manifest-url.js)', () => {
  const target = 'https://reports.example.com/excel/addin/';

  test('replaces every localhost URL and keeps the manifest valid', () => {
    const out = rewriteManifestUrls(stripXmlComments(manifestXml), target);
    expect(out).not.toMatch(/localhost|127\.0\.0\.1/);
    const rewritten = parse(out);
    const before = urlsIn(doc);
    const after = urlsIn(rewritten);
    expect(after).toHaveLength(before.length);
    for (const { where, url } of after) {
      if (where === '<AppDomain>') expect(url).toBe('https://reports.example.com');
      else expect(`${where} ${url.startsWith(target)}`).toBe(`${where} true`);
    }
    // Same paths under the new base.
    expect(after.map((u) => u.url.replace(target, '/'))).toEqual(
      before.map((u) => (u.url === DEV_ORIGIN ? 'https://reports.example.com' : u.url.replace(DEV_BASE, '/'))),
    );

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fin-manifest-'));
    try {
      const file = path.join(dir, 'manifest.xml');
      fs.writeFileSync(file, out);
      expect(manifestInfo(file)).toContain(`Source Location: ${target}taskpane.html`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('accepts a base without a trailing slash', () => {
    const out = rewriteManifestUrls(manifestXml, 'https://example.com/addin');
    expect(out).toContain('"https://example.com/addin/taskpane.html"');
    expect(out).not.toContain('localhost');
  });

  test('rejects URLs Office could not load or that stay on this machine', () => {
    expect(() => normalizeBaseUrl('http://example.com/addin/')).toThrow(/https/);
    expect(() => normalizeBaseUrl('example.com/addin')).toThrow(/absolute/);
    expect(() => normalizeBaseUrl('https://example.com/addin/?v=1')).toThrow(/query/);
    expect(() => normalizeBaseUrl('https://localhost:3000/')).toThrow(/this machine/);
    expect(normalizeBaseUrl('https://example.com')).toBe('https://example.com/');
  });

  test('fails loudly when a localhost URL would survive', () => {
    const odd = manifestXml.replace('https://localhost:3000/support.html', 'https://localhost:3001/support.html');
    expect(() => rewriteManifestUrls(odd, target)).toThrow(/localhost:3001/);
  });
});
