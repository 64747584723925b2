import type { FastifyRequest } from 'fastify';
import { invalidRequest } from './errors';

/** True when the request carried a body (any bytes at all, even whitespace). */
export function hasBody(req: FastifyRequest): boolean {
  return (req.rawBody ?? '').length > 0;
}

function isJsonContentType(req: FastifyRequest): boolean {
  const ct = String(req.headers['content-type'] ?? '').toLowerCase();
  return /^application\/json\s*(;|$)/.test(ct);
}

/** Parses a JSON body; a missing body, wrong content type or malformed JSON is 400 invalid_request. */
export function jsonBody(req: FastifyRequest): unknown {
  if (!isJsonContentType(req)) throw invalidRequest('The request body must be JSON sent with Content-Type: application/json.');
  const raw = req.rawBody ?? '';
  if (raw.trim() === '') throw invalidRequest('The request body is empty; send a JSON object.');
  try {
    return JSON.parse(raw);
  } catch {
    throw invalidRequest('The request body is not valid JSON.');
  }
}

/** Parses a JSON body that must be an object. */
export function jsonObjectBody(req: FastifyRequest): Record<string, unknown> {
  const body = jsonBody(req);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalidRequest('The request body must be a JSON object.');
  }
  return body as Record<string, unknown>;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Rejects keys outside `allowed` with 400 naming the first unknown key (prefixed by `path`). */
export function rejectUnknownKeys(obj: Record<string, unknown>, allowed: readonly string[], path = ''): void {
  for (const k of Object.keys(obj)) {
    if (!allowed.includes(k)) throw invalidRequest(`Unknown field: ${path}${k}.`, `${path}${k}`);
  }
}
