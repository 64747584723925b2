/** Office's errors as the gateway's: callers see GatewayError codes, never Office's. */
import { GatewayError, type PartialWrite } from '../../engine/ports/workbook';
import { isPayloadLimitError } from '../payload';
import { WriteStopped } from './session';

export function hostError(error: unknown): GatewayError {
  if (error instanceof WriteStopped) return hostError(error.reason);
  if (error instanceof GatewayError) return error;
  const e = (error ?? {}) as { code?: string; message?: string };
  const message = e.message ?? String(error);
  if (isPayloadLimitError(error)) return new GatewayError('PayloadTooLarge', message, e.code);
  if (e.code === 'ItemNotFound') return new GatewayError('NotFound', message, e.code);
  if (e.code === 'InvalidArgument') return new GatewayError('InvalidInput', message, e.code);
  return new GatewayError('Host', message, e.code);
}

/** A write Excel stopped part way, said as the pane should say it: what happened to the block, then Excel's reason. */
export function stoppedError(stop: WriteStopped, what: string, partial?: PartialWrite): GatewayError {
  const reason = hostError(stop.reason);
  return new GatewayError(reason.code, `${what} (Excel: ${reason.message})`, reason.hostCode, partial);
}
