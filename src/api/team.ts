import { callOptions, type CallOptions, type Transport } from './transport';
import type { Invitation, InvitationCreateParams, InvitationUpdateParams, TeamDocument } from './types';
import { pathSegment } from './url';

export function teamApi(transport: Transport) {
  const invitationPath = (id: string, method: string, suffix = ''): string =>
    `/team/invitations/${pathSegment(id, 'id', method, `/team/invitations/{id}${suffix}`)}${suffix}`;

  return {
    /** GET /team: members and invitations (both always arrays). */
    retrieve: async (opts?: CallOptions): Promise<TeamDocument> =>
      (await transport.request<TeamDocument>({ method: 'GET', path: '/team', ...callOptions(opts) })).body,

    invitations: {
      /** POST /team/invitations (201). invitation_create_failed is retried with backoff. */
      create: async (params: InvitationCreateParams, opts?: CallOptions): Promise<Invitation> =>
        (await transport.request<Invitation>({ method: 'POST', path: '/team/invitations', body: params, ...callOptions(opts) })).body,

      /** PATCH /team/invitations/{id}: access only. permissions_update_failed is retried with backoff. */
      update: async (id: string, params: InvitationUpdateParams, opts?: CallOptions): Promise<Invitation> =>
        (await transport.request<Invitation>({ method: 'PATCH', path: invitationPath(id, 'PATCH'), body: params, ...callOptions(opts) })).body,

      /**
       * POST /team/invitations/{id}/resend: no body at all (even `{}` is a 400). Every attempt emails the
       * invitee, so no 5xx and no network failure is ever retried here; the person decides.
       */
      resend: async (id: string, opts?: CallOptions): Promise<Invitation> =>
        (
          await transport.request<Invitation>({
            method: 'POST',
            path: invitationPath(id, 'POST', '/resend'),
            retryServerErrors: false,
            idempotent: false,
            ...callOptions(opts),
          })
        ).body,

      /** DELETE /team/invitations/{id}: 204 also for a missing id; safe to repeat. No body. */
      revoke: async (id: string, opts?: CallOptions): Promise<void> => {
        await transport.request<undefined>({ method: 'DELETE', path: invitationPath(id, 'DELETE'), ...callOptions(opts) });
      },
    },
  };
}
