import crypto from 'node:crypto';

// Opaque, signed cursors: base64url(JSON payload) + '.' + HMAC. A cursor that does not verify is
// "unusable" and each endpoint maps that to its own documented error.

export function signCursor(secret: string, payload: unknown): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const mac = crypto.createHmac('sha256', secret).update(body).digest('base64url').slice(0, 22);
  return `${body}.${mac}`;
}

export function verifyCursor<T>(secret: string, cursor: string): T | undefined {
  const dot = cursor.indexOf('.');
  if (dot <= 0) return undefined;
  const body = cursor.slice(0, dot);
  const mac = crypto.createHmac('sha256', secret).update(body).digest('base64url').slice(0, 22);
  const given = cursor.slice(dot + 1);
  if (given.length !== mac.length || !crypto.timingSafeEqual(Buffer.from(given), Buffer.from(mac))) return undefined;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
  } catch {
    return undefined;
  }
}
