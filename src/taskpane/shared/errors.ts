// The one place a failure becomes what the user reads: every API error (ApiError, MonthlyLimitError),
// configuration error, workbook error or pane error maps to a title and a sentence that says what to do.
// The API key never appears: the client already redacts it from what it keeps, and as a last line of
// defence anything shaped like a key is masked here.

import { ApiError, ConfigError, MonthlyLimitError, planCap, UNREADABLE_ANSWER } from '../../api';
import { capFromMessage, GatewayError, isFinError, isRefusal, OutageError, permissionFor, RenderError } from '../../runtime/screenKit';

/** A failure the pane itself detects, already worded for the user. */
export class PaneError extends Error {
  override name = 'PaneError';
  constructor(
    readonly title: string,
    message: string,
    readonly code = 'pane_error',
  ) {
    super(message);
  }
}

export interface UserMessage {
  title: string;
  body: string;
  /** The API's code (or ours), for support; never shown as the only explanation. */
  code?: string;
}

export interface DescribeContext {
  /** The base URL in use or typed, for "cannot reach ..." */
  baseUrl?: string;
  /** The plan the user chose, for the cap when the server's message has no number. */
  plan?: string;
}

const KEY_SHAPE = /svc_[A-Za-z0-9_]+/g;

/** Masks anything shaped like an API key. */
export function maskKeys(text: string): string {
  return text.replace(KEY_SHAPE, 'svc_••••');
}

function said(error: Error): string {
  return error.message.trim().replace(/\s+/g, ' ');
}

/** "lacks the API access: Manage permission" / "needs the Reports: View permission" -> the permission. */
function permissionNamed(message: string): string | null {
  const m = /(?:lacks|needs|need|requires)\s+(?:the\s+)?(.+?:\s*(?:Manage|View))\s+permission/i.exec(message);
  return m ? m[1] : null;
}

function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

function describeApiError(error: ApiError, ctx: DescribeContext): UserMessage {
  const code = error.code ?? undefined;
  if (error instanceof MonthlyLimitError || code === 'monthly_limit_exceeded') {
    const resetDate = error instanceof MonthlyLimitError ? error.resetDate : null;
    const cap = capFromMessage(error.message) ?? (ctx.plan ? planCap(ctx.plan) : undefined) ?? null;
    const capText = cap === null ? 'its monthly API calls' : `its ${formatCount(cap)} API calls for this month`;
    return {
      title: 'Monthly API limit reached',
      body:
        `This company has used ${capText}. ` +
        (resetDate ? `The limit resets on ${resetDate} at 00:00 Pacific Time. ` : 'The limit resets at midnight Pacific Time on the 1st. ') +
        'Figures already in the workbook stay; anything already fetched can still be inserted. A higher plan raises the cap.',
      code: 'monthly_limit_exceeded',
    };
  }
  switch (code) {
    case 'invalid_api_key':
      return {
        title: 'API key not accepted',
        body: 'The key was revoked or mistyped. Paste a new key from Settings > API Keys in the web app, then connect again.',
        code,
      };
    case 'user_inactive':
      return {
        title: 'User deactivated',
        body: "The key's owner has been deactivated in this company. Ask a company admin to reactivate the user, then try again.",
        code,
      };
    case 'user_removed_from_company':
      return {
        title: 'No access to this company',
        body: "The key's owner is no longer a member of this company. Ask an admin to add them back, then create a new key under Settings > API Keys.",
        code,
      };
    case 'company_closed':
      return {
        title: 'Company closed',
        body: "This company is closed, so its data is no longer available through the API. Connect with another company's key.",
        code,
      };
    case 'subscription_required':
      return {
        title: 'Subscription required',
        body: 'This company has no active subscription (or its trial ended). An admin can renew it in the web app; then try again.',
        code,
      };
    case 'insufficient_permission': {
      const permission = permissionNamed(error.message) ?? permissionFor(error.request.path);
      return {
        title: 'Permission missing',
        body: `The key's owner lacks the ${permission} permission. Ask a company admin to grant it under Settings > Team, then try again.`,
        code,
      };
    }
    case 'outage':
      // No answer at all reads as any unreachable API (below); server failures say what they cost, and
      // one endpoint failing on its own is named: the rest of the API was asked as usual.
      if (error.type === 'connection_error') break;
      if (error instanceof OutageError && error.endpoint) {
        return {
          title: `The API's ${error.endpoint.name} is failing`,
          body: `${said(error)}. Only what needs it was stopped, and its figures already in the workbook stay as they are; try again in a few minutes.`,
          code,
        };
      }
      return {
        title: 'The API is not answering',
        body: `${said(error)}. Figures already in the workbook stay as they are; try again in a few minutes.`,
        code,
      };
    case 'rate_limit_exceeded':
      return { title: 'Too many requests', body: 'The API is limiting requests for this key right now. Wait a minute and try again.', code };
    // An answer in a shape the add-in does not read (src/api/answerShape.ts): whose problem it is, and what
    // to tell whoever runs the API. Asking again gets the same answer, so it says not to retry.
    case UNREADABLE_ANSWER:
      return unreadableAnswer(said(error), `${error.request.method} ${error.request.path}`, code);
    // Answers the client refuses to use (src/api: malformed, oversized, a list that never ends).
    case 'invalid_response':
    case 'response_too_large':
    case 'page_limit_exceeded':
      return {
        title: "The API's answer could not be used",
        body: `${said(error)} Nothing was written from it. Try again later; if it keeps happening, tell whoever runs the API.`,
        code,
      };
    case 'redirect_refused':
      return { title: 'Check the base URL', body: `${said(error)}${ctx.baseUrl ? ` The base URL in use is ${ctx.baseUrl}.` : ''}`, code };
    default:
      break;
  }
  if (error.type === 'permission_error') {
    return { title: 'Not allowed', body: `${said(error)} Ask a company admin if you need this.`, code };
  }
  if (error.type === 'connection_error') {
    if (code === 'aborted') return { title: 'Cancelled', body: 'The request was cancelled before it finished.', code };
    const where = ctx.baseUrl ? ` at ${ctx.baseUrl}` : '';
    return {
      title: 'Cannot reach the API',
      body:
        `No answer from the API${where}. Check the base URL under Advanced. ` +
        'For the demo company, make sure the sandbox is running (npm start).',
      code: code ?? 'connection_error',
    };
  }
  if (error.status !== null && error.status >= 500) {
    return {
      title: 'The API had a problem',
      body: `The server answered ${error.status}${code ? ` (${code})` : ''}. Nothing was changed; try again in a minute.`,
      code,
    };
  }
  return { title: 'The API refused the request', body: said(error), code };
}

/** An answer the add-in cannot read: not the user's doing, and not worth retrying. */
function unreadableAnswer(detail: string, request: string | null, code: string | undefined): UserMessage {
  return {
    title: 'The API answered in a form this add-in does not read',
    body:
      `${detail.replace(/\.$/, '')}. Nothing was written from it, and trying again gets the same answer. ` +
      (request ? `Tell whoever runs the API that ${request} answered this way (the fields above say how).` : 'Tell whoever runs the API what this message says.'),
    code,
  };
}

/** Any failure as a title and a sentence saying what to do. */
export function describeError(error: unknown, ctx: DescribeContext = {}): UserMessage {
  let message: UserMessage;
  if (error instanceof PaneError || isRefusal(error)) message = { title: error.title, body: error.message, code: error.code };
  else if (error instanceof ApiError) message = describeApiError(error, ctx);
  else if (error instanceof ConfigError) {
    if (error.field === 'apiKey') {
      message = {
        title: 'That is not an API key',
        body: 'API keys start with svc_ and contain no spaces. Copy the key from Settings > API Keys in the web app and paste it here.',
        code: 'invalid_key_format',
      };
    } else if (error.field === 'baseUrl') {
      message = {
        title: 'Check the base URL',
        body: `${said(error)} For example https://api.example.com/api/v1, /api/v1 where the add-in's own address relays the API, or http://127.0.0.1:4010/api/v1 for the local sandbox.`,
        code: 'invalid_base_url',
      };
    } else message = { title: 'Cannot connect', body: said(error), code: 'invalid_options' };
  } else if (error instanceof GatewayError) {
    message =
      error.code === 'NotFound'
        ? { title: 'Not found in the workbook', body: `${said(error)}. It may have been renamed or deleted.`, code: error.code }
        : { title: error.code === 'Inactive' ? 'Come back to this workbook' : 'Excel could not do this', body: said(error), code: error.code };
  } else if (error instanceof RenderError) {
    // A statement whose figures do not add up, or lack a field the layout needs: the answer, not the user.
    message = unreadableAnswer(said(error), null, 'render');
  } else if (isFinError(error)) {
    message = { title: 'Not available', body: said(error), code: error.code };
  } else if (error instanceof Error) {
    message = { title: 'Something went wrong', body: said(error) };
  } else {
    message = { title: 'Something went wrong', body: String(error) };
  }
  return { ...message, title: maskKeys(message.title), body: maskKeys(message.body) };
}
