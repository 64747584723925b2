// The push log (Workspace.pushLog): its last entries, and its sheet shown. No call.

import type { WorkbookGateway } from '../../engine/ports/workbook';
import { openLog, recentEntries } from '../../engine/pushLog/log';
import type { Workspace } from './types';

export function workspacePushLog(gateway: WorkbookGateway): Workspace['pushLog'] {
  return {
    recent: (count) => recentEntries(gateway, count),
    open: () => openLog(gateway),
  };
}
