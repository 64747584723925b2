/**
 * Microsoft's Excel client library (office-js from the package: its proxies, load/sync queue,
 * PropertyNotLoaded errors and requirement checks) running in this realm, with ExcelHost behind it instead
 * of Excel. OfficeGateway's `run` becomes the real Excel.run, on a host profile: the platform and the
 * requirement sets that host reports, through the library's own RequirementMatrix, with the client-side
 * check switched on so a member the host lacks throws ApiNotFound at the call, as in Excel.
 *
 * The Excel code and batching runtime are the same in the Windows, Mac and web host files (only the
 * transport differs, and this replaces it), so one file is loaded for every profile.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ExcelRunner } from '../../src/excel/officeGateway';
import { ExcelHost, type RequestBody } from './excelHost';
import type { FakeExcel } from './fakeExcel';
import { DIST, HOST_FILES, NEWER_CLIENT_MEMBERS } from './requirementSets';

export interface HostProfile {
  name: string;
  /** Office.context.platform. */
  platform: 'PC' | 'Mac' | 'OfficeOnline';
  /** Office.context.diagnostics.version. */
  version: string;
  /** Requirement sets the host reports: lower-case names, versions as strings (1.10 as a number reads 1.1). */
  sets: Record<string, string>;
  /**
   * 'package': the library exactly as packaged (1.1.110). 'newer': the package plus the members the CDN's
   * office.js has and the add-in uses (NEWER_CLIENT_MEMBERS), defined the way the library defines its own.
   */
  client: 'package' | 'newer';
}

/**
 * DelayForCellEdit is a hidden set: the library honours Excel.run's delayForCellEdit only where the host
 * reports it, and ignores it elsewhere.
 */
export const WINDOWS: HostProfile = {
  name: 'Windows',
  platform: 'PC',
  version: '16.0.18129.20158',
  sets: { excelapi: '1.16', excelapidesktop: '1.1', delayforcelledit: '1.1' },
  client: 'package',
};

export const MAC: HostProfile = {
  name: 'Mac',
  platform: 'Mac',
  version: '16.0.18129.20158',
  sets: { excelapi: '1.16', excelapidesktop: '1.1', delayforcelledit: '1.1' },
  client: 'newer',
};

export const WEB: HostProfile = {
  name: 'web',
  platform: 'OfficeOnline',
  version: '16.0.18129.41000',
  sets: { excelapi: '1.16', excelapionline: '1.1', delayforcelledit: '1.1' },
  client: 'newer',
};

/**
 * The oldest Excel manifest.xml admits: Microsoft 365 on Windows, Version 2002 (Build 12527.20092), where
 * SharedRuntime 1.1 begins ("Shared runtime requirement sets"). It has ExcelApi 1.10 (from Version 1907) and
 * CustomFunctionsRuntime 1.2 (from Version 1909), not ExcelApi 1.11 (Build 12527.20470) nor typed values
 * (1.16), and, assumed, not the hidden DelayForCellEdit set: Excel.run's delayForCellEdit is ignored there.
 * Every other host the manifest admits (Office 2021, the Mac from 16.35, the web) has more.
 */
export const OLDEST: HostProfile = {
  name: 'oldest admitted',
  platform: 'PC',
  version: '16.0.12527.20092',
  sets: { excelapi: '1.10', customfunctionsruntime: '1.2', sharedruntime: '1.1' },
  client: 'package',
};

/** The library's internals have no typings. */
type Loose = any;
const realm = globalThis as Loose;

let active: HostProfile = WINDOWS;
const called = new Map<string, Set<string>>();

/** Every Excel member called on a profile in this test file (executor and library side), as Class.member. */
export function membersCalledOn(profile: HostProfile): Set<string> {
  let set = called.get(profile.name);
  if (!set) called.set(profile.name, (set = new Set()));
  return set;
}

const record = (member: string) => membersCalledOn(active).add(member);

function load(): void {
  if (realm.__finOfficeJs) return;
  realm.window ??= realm;
  realm.navigator ??= { userAgent: 'node' };
  realm.location ??= { href: 'https://localhost/taskpane.html', protocol: 'https:', host: 'localhost', hostname: 'localhost', search: '', hash: '' };
  realm.document ??= { readyState: 'complete', addEventListener() {}, getElementsByTagName: () => [], createElement: () => ({}) };
  // The library captures Utility.throwIfApiNotSupported once, as the Excel classes are defined: wrapping it
  // as it is published records every gated member called, including those it refuses.
  let utility: Loose;
  const ext: Loose = {};
  Object.defineProperty(ext, 'Utility', {
    configurable: true,
    enumerable: true,
    get: () => utility,
    set: (u: Loose) => {
      utility = u;
      const check = u.throwIfApiNotSupported;
      u.throwIfApiNotSupported = function (member: string, ...rest: unknown[]) {
        record(member);
        return check.call(this, member, ...rest);
      };
    },
  });
  realm.OfficeExtension = ext;
  (0, eval)(readFileSync(path.join(DIST, HOST_FILES.Windows), 'utf8'));

  const { RequirementMatrix, DefaultSetRequirement } = realm.OfficeExt.Requirement;
  const contexts = new Map<string, Loose>();
  realm.OSF._OfficeAppFactory = {
    getContext: () => {
      let ctx = contexts.get(active.name);
      if (!ctx) {
        ctx = {
          platform: active.platform,
          diagnostics: { host: 'Excel', platform: active.platform, version: active.version },
          requirements: new RequirementMatrix(new DefaultSetRequirement({ ...active.sets })),
        };
        contexts.set(active.name, ctx);
      }
      return ctx;
    },
    getHostInfo: () => ({ hostType: 'Excel', hostPlatform: active.platform === 'OfficeOnline' ? 'Web' : active.platform, flags: 0 }),
  };
  // In 1.1.110 the check is switched on only in a subclass; Excel throws ApiNotFound, so must the client.
  realm.OfficeExtension.CommonUtility._doApiNotSupportedCheck = true;
  realm.__finOfficeJs = true;
}

/** Range.valuesAsJson as office.js defines its properties, for the 'newer' client; removed for 'package'. */
function useClient(client: HostProfile['client']): void {
  const proto = realm.Excel.Range.prototype;
  const has = Object.prototype.hasOwnProperty.call(proto, 'valuesAsJson');
  if (client === 'package') {
    if (has) delete proto.valuesAsJson;
    return;
  }
  if (has) return;
  const { set, version } = NEWER_CLIENT_MEMBERS['Range.valuesAsJson'];
  const ext = realm.OfficeExtension;
  Object.defineProperty(proto, 'valuesAsJson', {
    configurable: true,
    get(this: Loose) {
      ext.Utility.throwIfApiNotSupported('Range.valuesAsJson', set, version, 'Excel');
      ext.Utility.throwIfNotLoaded('valuesAsJson', this._VJ, 'Range', this._isNull);
      return this._VJ;
    },
    set(this: Loose, value: unknown) {
      ext.Utility.throwIfApiNotSupported('Range.valuesAsJson', set, version, 'Excel');
      this._VJ = value;
      ext.BatchApiHelper.invokeSetProperty(this, 'ValuesAsJson', value, 0);
    },
  });
}

/**
 * The real Excel.run against `excel`, on `profile`: hand it to OfficeGateway as `run`. Each run makes the
 * profile current (Office.context, the client members), so harnesses on different hosts can follow each other.
 */
export function realExcelRun(excel: FakeExcel, profile: HostProfile = WINDOWS): ExcelRunner {
  load();
  const host = new ExcelHost(excel, record);
  class HostSession extends realm.OfficeExtension.SessionBase {
    _resolveRequestUrlAndHeaderInfo() {
      return Promise.resolve({ url: 'fake-excel', headers: {} });
    }
    _createRequestExecutorOrNull() {
      return { executeAsync: (_customData: unknown, flags: number, message: { Body: RequestBody }) => host.execute(flags, message.Body) };
    }
  }
  const session = new HostSession();
  return (options, batch) => {
    active = profile;
    useClient(profile.client);
    realm.OfficeExtension.SessionBase._overrideSession = session;
    return realm.Excel.run(options, batch);
  };
}
