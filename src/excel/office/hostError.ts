/** Office's errors as the gateway's: callers see GatewayError codes, never Office's. */
import { GatewayError, type PartialWrite } from '../../engine/ports/workbook';
import { isPayloadLimitError } from '../payload';
import { WriteStopped } from './session';

/**
 * InvalidSelection outside a read of the selection: Excel refuses a sheet's names, the active cell or the
 * selection while another workbook or window is in front (OfficeDev/office-js#6365, #5319, #561).
 */
const COME_BACK = 'Another workbook or Excel window was in front, and Excel would not go on with this one: come back to this workbook and try again.';

/**
 * GeneralException says nothing of its cause; two known ones are the user's to undo: a cell selected in another
 * workbook during a sync (#771) and several sheets selected at once (#2266).
 */
const GENERAL_HINT = 'If another workbook or Excel window was in front, or several sheets are selected, come back to this workbook, select one sheet and try again.';

/** AccessDenied is what Excel answers a change to a protected sheet. */
const PROTECTED_HINT = 'The sheet may be protected: unprotect it (Review > Unprotect Sheet) and try again.';

export function hostError(error: unknown): GatewayError {
  if (error instanceof WriteStopped) return hostError(error.reason);
  if (error instanceof GatewayError) return error;
  const e = (error ?? {}) as { code?: string; message?: string };
  const message = e.message ?? String(error);
  if (isPayloadLimitError(error)) return new GatewayError('PayloadTooLarge', message, e.code);
  if (e.code === 'ItemNotFound') return new GatewayError('NotFound', message, e.code);
  if (e.code === 'InvalidArgument') return new GatewayError('InvalidInput', message, e.code);
  if (e.code === 'InvalidSelection') return new GatewayError('Inactive', COME_BACK, e.code);
  // What Excel says of a locked cell on a protected sheet ("You cannot perform the requested operation.").
  if (e.code === 'AccessDenied') return new GatewayError('Protected', `${message.replace(/\.?\s*$/, '.')} ${PROTECTED_HINT}`, e.code);
  if (e.code === 'GeneralException') return new GatewayError('Host', `${message.replace(/\.?\s*$/, '.')} ${GENERAL_HINT}`, e.code);
  return new GatewayError('Host', message, e.code);
}

/**
 * A write Excel stopped part way, said as the pane should say it: what happened to the block, then Excel's
 * reason (ours as it is when it already says what to do).
 */
export function stoppedError(stop: WriteStopped, what: string, partial?: PartialWrite): GatewayError {
  const reason = hostError(stop.reason);
  const why = reason.code === 'Inactive' ? reason.message : `(Excel: ${reason.message})`;
  return new GatewayError(reason.code, `${what} ${why}`, reason.hostCode, partial);
}
