import { ApiError } from './errors';

// Which names the sandbox answers to. It listens on loopback only, but a web page elsewhere can still reach
// it by DNS rebinding: its own name is made to resolve to 127.0.0.1, so the page calls the sandbox as its
// own origin (no CORS check applies) and could read /__sandbox/keys. Such requests carry the page's name in
// the Host header, so only loopback names are answered.

/** localhost, 127.0.0.0/8 or [::1] (a URL's hostname, or a Host header without its port). */
export function isLoopbackName(hostname: string): boolean {
  const name = hostname.toLowerCase();
  if (name === 'localhost' || name === '[::1]') return true;
  const octets = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(name);
  return octets !== null && octets.slice(1).every((o) => Number(o) <= 255);
}

/** The Host header's name without its port, or null when it is not a plain name[:port]. */
function hostName(header: string): string | null {
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::\d{1,5})?$/i.exec(header);
  return m ? m[1] : null;
}

export function isLoopbackHostHeader(header: string | undefined): boolean {
  const name = header ? hostName(header) : null;
  return name !== null && isLoopbackName(name);
}

/** 421 Misdirected Request: this server is not the one the name refers to. */
export function hostNotAllowed(): ApiError {
  return new ApiError(
    421,
    'invalid_request_error',
    'host_not_allowed',
    'The sandbox answers only requests addressed to localhost, 127.0.0.1 or [::1].',
  );
}
