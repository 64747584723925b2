// What one attempt's result means for its request: the answer (a JSON object, or nothing), or the ApiError it
// is, with what the retry policy needs to know of it; and the errors of a request that never got an answer.
// Every message is redacted of the key, which lives only in attemptOutcome's closure.

import type { AttemptResult } from './attempt';
import { MAX_RESPONSE_BYTES } from './attempt';
import { parseRetryAfter } from './backoff';
import { ApiError, MonthlyLimitError, causeCode, redact, sanitizeCause, type ApiErrorInit, type ErrorType, type FailedRequest } from './errors';
import type { ApiResponse, RequestSpec } from './request';
import type { AttemptFailure } from './retry';

export interface ErrorBody {
  type?: string;
  code?: string;
  message?: string;
  param?: string;
  doc_url?: string;
}

export function parseErrorBody(text: string): ErrorBody {
  try {
    const parsed: unknown = JSON.parse(text);
    const error = (parsed as { error?: unknown } | null)?.error;
    if (!error || typeof error !== 'object') return {};
    const out: ErrorBody = {};
    for (const field of ['type', 'code', 'message', 'param', 'doc_url'] as const) {
      const value = (error as Record<string, unknown>)[field];
      if (typeof value === 'string') out[field] = value;
    }
    return out;
  } catch {
    return {};
  }
}

function fallbackType(status: number): ErrorType {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

/** An attempt's result read: the answer, or the error with what the retry policy needs (a MonthlyLimitError is final). */
export type AttemptOutcome<T> = { kind: 'answer'; response: ApiResponse<T> } | { kind: 'failed'; error: ApiError; failure: AttemptFailure };

export interface AttemptOutcomes {
  /**
   * The outcome of attempt number `attempts`; `errorBody` is its error body as read for counting. Throws what
   * no retry can mend: a refused answer, a body that is not a JSON object.
   */
  read<T>(result: AttemptResult, errorBody: ErrorBody, spec: RequestSpec, info: FailedRequest, attempts: number): AttemptOutcome<T>;
  aborted(info: FailedRequest, attempts: number): ApiError;
}

export function attemptOutcomes(apiKey: string, now: () => number): AttemptOutcomes {
  function connectionError(result: Extract<AttemptResult, { kind: 'network' }>, info: FailedRequest, attempts: number): ApiError {
    const code = result.reason === 'not_sent' ? 'connection_refused' : result.reason;
    const detail = causeCode(result.cause);
    const what =
      result.reason === 'aborted'
        ? 'was aborted'
        : result.reason === 'timeout'
          ? 'timed out'
          : result.reason === 'not_sent'
            ? 'could not connect'
            : 'failed at the network level';
    return new ApiError({
      message: redact(`${info.method} ${info.path} ${what}${detail ? ` (${detail})` : ''}.`, apiKey),
      status: null,
      type: 'connection_error',
      code,
      request: info,
      attempts,
      cause: result.reason === 'aborted' ? undefined : sanitizeCause(result.cause, apiKey),
    });
  }

  function invalidBody(message: string, status: number, info: FailedRequest, attempts: number): ApiError {
    return new ApiError({ message, status, type: 'api_error', code: 'invalid_response', request: info, attempts });
  }

  function refusedError(result: Extract<AttemptResult, { kind: 'refused' }>, info: FailedRequest, attempts: number): ApiError {
    const message =
      result.reason === 'redirect'
        ? `${info.method} ${info.path} was answered with a redirect, which the client never follows (it would carry the key elsewhere; the API itself never redirects). Check the base URL: it must be the API's own address, ending in /api/v1.`
        : `${info.method} ${info.path} returned a body over ${MAX_RESPONSE_BYTES / 1024 / 1024} MB, far more than any answer of the API; it was not read.`;
    return new ApiError({
      message,
      status: result.status,
      type: 'api_error',
      code: result.reason === 'redirect' ? 'redirect_refused' : 'response_too_large',
      request: info,
      attempts,
    });
  }

  function abortedError(info: FailedRequest, attempts: number): ApiError {
    return new ApiError({
      message: `${info.method} ${info.path} was aborted.`,
      status: null,
      type: 'connection_error',
      code: 'aborted',
      request: info,
      attempts,
    });
  }


  function answer<T>(result: Extract<AttemptResult, { kind: 'response' }>, spec: RequestSpec, info: FailedRequest, attempts: number): ApiResponse<T> {
    if (result.text.trim() === '') return { status: result.status, body: undefined as T, location: result.location };
    let body: unknown;
    try {
      body = JSON.parse(result.text);
    } catch {
      // The request was processed; sending it again would not make the body readable.
      throw invalidBody(`${spec.method} ${spec.path} returned a body that is not JSON.`, result.status, info, attempts);
    }
    // Every answer of the API is a JSON object (lists come in an envelope): null, a bare value or an
    // array would otherwise travel on as if it were the resource, and end up in a cell.
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw invalidBody(`${spec.method} ${spec.path} returned ${body === null ? 'null' : Array.isArray(body) ? 'an array' : `a ${typeof body}`}, not a JSON object.`, result.status, info, attempts);
    }
    return { status: result.status, body: body as T, location: result.location };
  }

  function httpError<T>(result: Extract<AttemptResult, { kind: 'response' }>, errorBody: ErrorBody, spec: RequestSpec, info: FailedRequest, attempts: number): AttemptOutcome<T> {
    const code = errorBody.code ?? null;
    const retryAfterMs = parseRetryAfter(result.retryAfter, Date.now());
    const type = errorBody.type ?? fallbackType(result.status);
    const init: ApiErrorInit = {
      message: redact(errorBody.message ?? `${spec.method} ${spec.path} failed with HTTP ${result.status}.`, apiKey),
      status: result.status,
      type: redact(type, apiKey),
      code: code === null ? null : redact(code, apiKey),
      param: errorBody.param === undefined ? null : redact(errorBody.param, apiKey),
      docUrl: errorBody.doc_url === undefined ? null : redact(errorBody.doc_url, apiKey),
      request: info,
      retryAfterMs,
      attempts,
    };
    const error = code === 'monthly_limit_exceeded' ? new MonthlyLimitError(init, now()) : new ApiError(init);
    return { kind: 'failed', error, failure: { kind: 'response', status: result.status, type, code, retryAfterMs } };
  }

  return {
    read<T>(result: AttemptResult, errorBody: ErrorBody, spec: RequestSpec, info: FailedRequest, attempts: number): AttemptOutcome<T> {
      if (result.kind === 'network') return { kind: 'failed', error: connectionError(result, info, attempts), failure: { kind: 'network', reason: result.reason } };
      // Final: sending again would be redirected again, or bring the same oversized body.
      if (result.kind === 'refused') throw refusedError(result, info, attempts);
      if (result.status >= 200 && result.status <= 299) return { kind: 'answer', response: answer<T>(result, spec, info, attempts) };
      return httpError<T>(result, errorBody, spec, info, attempts);
    },
    aborted: abortedError,
  };
}
