// What a FIN function answers when it cannot answer a value. Two kinds only, because a cell shows only
// two custom-message errors that mean something to an accountant:
//   'value' -> #VALUE!  the formula's arguments are wrong (unknown category, bad date, bad scale, ...)
//   'na'    -> #N/A     the data is not available right now (not connected, cap reached, permission
//                        missing, network trouble, value preview before the first fetch)
// Messages say what is wrong and what to do; they never carry the API key (ApiError messages are redacted
// by the client) and are kept short enough for Excel's error tooltip.

import { ApiError, MonthlyLimitError } from '../../api/errors';
import { UNREADABLE_ANSWER } from '../../api/answerShape';
import { capFromMessage } from '../reader/capBlock';
import { RenderError } from '../render/money';

export type FinErrorKind = 'value' | 'na';

/** Excel shows custom messages in a small tooltip; anything longer is cut here, once. */
export const MAX_MESSAGE_LENGTH = 255;

export class FinError extends Error {
  override name = 'FinError';
  constructor(
    readonly kind: FinErrorKind,
    message: string,
    /** A stable tag for tests and the pane ('not_connected', 'monthly_limit', 'unknown_category', ...). */
    readonly code: string = kind === 'value' ? 'invalid_argument' : 'not_available',
  ) {
    super(message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : message);
  }
}

export function isFinError(value: unknown): value is FinError {
  return value instanceof FinError;
}

export const NOT_CONNECTED_MESSAGE = 'Not connected: open Financial Reporting and connect';
export const PREVIEW_MESSAGE = 'Preview: press Enter to fetch';

export const finErrors = {
  notConnected: (): FinError => new FinError('na', NOT_CONNECTED_MESSAGE, 'not_connected'),
  preview: (): FinError => new FinError('na', PREVIEW_MESSAGE, 'preview'),
  argument: (message: string, code = 'invalid_argument'): FinError => new FinError('value', message, code),
  badDate: (message: string): FinError => new FinError('value', message, 'bad_date'),
  noAnswer: (limitMs: number): FinError => new FinError('na', `No answer within ${limitMs / 1000} s; recalculate to try again`, 'timeout'),
};

/** The area a path needs (spec, Authentication table), for a "permission missing" message. */
export function permissionFor(path: string): string {
  if (path.startsWith('/reports/') || path.startsWith('/aggregations/') || path.startsWith('/parties/') || path.startsWith('/journal_entries')) {
    return 'Reports: View';
  }
  if (path === '/categories' || path === '/departments' || path.startsWith('/rules')) return 'Accounting setup: View';
  if (path.startsWith('/transactions') || path === '/accounts' || path === '/cards') return 'Transactions: View';
  if (path === '/company') return 'Company: View';
  return 'the permission this data needs';
}

export function monthlyLimitMessage(cap: number | null, resetDate: string): string {
  return cap === null
    ? `Monthly API limit reached; resets ${resetDate} (Pacific time)`
    : `Monthly API limit of ${cap} calls reached; resets ${resetDate} (Pacific time)`;
}

export function monthlyLimitError(cap: number | null, resetDate: string): FinError {
  return new FinError('na', monthlyLimitMessage(cap, resetDate), 'monthly_limit');
}

/**
 * An API failure as a cell error. Argument-like answers (400, 404) are #VALUE!: the formula asked for
 * something the API will not give. Everything else (credentials, permissions, limits, the network, the
 * server) is #N/A: the formula is fine, the data is not available now.
 */
export function fromApiError(error: ApiError, path: string): FinError {
  if (error instanceof MonthlyLimitError) return monthlyLimitError(capFromMessage(error.message), error.resetDate);
  const said = error.message.replace(/\s+$/, '');
  switch (error.code) {
    case 'invalid_api_key':
      return new FinError('na', 'The API key was rejected (revoked or unknown): open Financial Reporting and connect again', 'invalid_api_key');
    case 'insufficient_permission':
      return new FinError('na', `Permission missing: the key's user needs ${permissionFor(path)} (API said: ${said})`, 'permission');
    case 'user_inactive':
    case 'user_removed_from_company':
    case 'company_closed':
    case 'subscription_required':
      return new FinError('na', `No access: ${said}`, error.code);
    case 'rate_limit_exceeded':
      return new FinError('na', 'The API is busy (rate limit); recalculate in a minute', 'rate_limit');
    default:
      break;
  }
  if (error.code === 'timeout') return new FinError('na', `${said}; recalculate to try again`, 'timeout');
  if (error.code === 'outage') return new FinError('na', said, 'outage');
  if (error.code === 'invalid_response') return new FinError('na', `The API's answer could not be used: ${said}`, 'invalid_response');
  // Not the formula's fault: the API answered in a shape this add-in does not read (the message names it).
  if (error.code === UNREADABLE_ANSWER) return new FinError('na', said, UNREADABLE_ANSWER);
  if (error.type === 'connection_error') {
    return new FinError('na', `Could not reach the API (${error.code ?? 'network'}); recalculate to try again`, 'connection');
  }
  if (error.status !== null && error.status >= 500) {
    return new FinError('na', `The API failed (${error.status}); recalculate to try again`, 'server');
  }
  if (error.status === 400 || error.status === 404 || error.status === 422 || error.type === 'invalid_request_error') {
    return new FinError('value', `The API refused the request: ${said}`, error.code ?? 'invalid_request');
  }
  return new FinError('na', `The API answered ${error.status ?? 'nothing'}: ${said}`, error.code ?? 'api_error');
}

/** Any failure of an evaluation as the cell error it shows. */
export function toFinError(error: unknown, path: string): FinError {
  if (isFinError(error)) return error;
  if (error instanceof ApiError) return fromApiError(error, error.request?.path || path);
  if (error instanceof RenderError) return new FinError('na', `The API's answer could not be read: ${error.message}`, 'invalid_response');
  const message = error instanceof Error ? error.message : String(error);
  return new FinError('na', `Unexpected error: ${message}`, 'internal');
}
