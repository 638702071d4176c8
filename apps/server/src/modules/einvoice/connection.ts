import type { EInvoiceConnection } from '@depot/contracts';
import * as oauth from 'oauth4webapi';
import type { Db } from '../../db/database.ts';
import { now } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { AppError, FieldError } from '../../http/errors.ts';
import type { Actor } from '../../policies/policy.ts';
import { auditWho, recordAudit } from '../audit/audit.ts';
import { type CamInvoiceClient, CamInvoiceRefused, CamInvoiceUnreachable } from './caminvoice.client.ts';
import { open, seal } from './seal.ts';

/**
 * The business's CamInvoice connection: the merchant's approval (connect flow, `state` checked
 * with oauth4webapi against the one this administrator was given, single use, ten minutes), the
 * tokens sealed at rest, the access token refreshed a minute before it expires, revoked when
 * CamInvoice no longer accepts the refresh token, and disconnect.
 */

const STATE_MINUTES = 10;
const EARLY_REFRESH_MS = 60_000;

export interface EInvoiceSettings {
  client: CamInvoiceClient | null;
  key: Buffer;
  environment: 'sandbox' | 'production';
  webhookUrl: string;
}

/** No connection to use: not connected, or revoked. */
export class NotConnected extends Error {}

export function connectionService(db: Db, settings: EInvoiceSettings) {
  const { key } = settings;

  function client(): CamInvoiceClient {
    if (!settings.client) throw new AppError(409, 'einvoice.not_configured');
    return settings.client;
  }

  const current = () => db.selectFrom('einvoice_connections').selectAll().orderBy('id', 'desc').executeTakeFirst();

  /** One refresh at a time in this process; other processes are handled by the token's comparison below. */
  let refreshing: Promise<string> | null = null;

  async function refreshed(): Promise<string> {
    const row = await current();
    if (row?.status !== 'connected') throw new NotConnected();
    if (
      row.access_token &&
      row.access_expires_at &&
      Date.parse(row.access_expires_at) - EARLY_REFRESH_MS > Date.now()
    ) {
      return open(key, row.access_token);
    }
    const refreshToken = open(key, row.refresh_token);
    let tokens: Awaited<ReturnType<CamInvoiceClient['refresh']>>;
    try {
      tokens = await client().refresh(refreshToken);
    } catch (error) {
      if (error instanceof CamInvoiceRefused && [400, 401, 403].includes(error.status)) {
        // another process may have refreshed (and CamInvoice rotated the refresh token) meanwhile
        const again = await current();
        if (again && again.refresh_token !== row.refresh_token && again.status === 'connected') return refreshed();
        await db
          .updateTable('einvoice_connections')
          .set({ status: 'revoked', revoked_at: now(), access_token: null, problem: error.detail, updated_at: now() })
          .where('id', '=', row.id)
          .where('refresh_token', '=', row.refresh_token)
          .execute();
        throw new NotConnected();
      }
      throw error;
    }
    await db
      .updateTable('einvoice_connections')
      .set({
        access_token: seal(key, tokens.access_token as string),
        access_expires_at: tokens.expires_at ?? new Date(Date.now() + 3600_000).toISOString(),
        ...(tokens.refresh_token ? { refresh_token: seal(key, tokens.refresh_token) } : {}),
        problem: null,
        updated_at: now(),
      })
      .where('id', '=', row.id)
      .execute();
    return tokens.access_token as string;
  }

  return {
    client,

    /** A working access token: the stored one, or a fresh one when it expires within a minute. */
    async accessToken(): Promise<string> {
      if (!refreshing) refreshing = refreshed().finally(() => (refreshing = null));
      return refreshing;
    },

    async status(): Promise<EInvoiceConnection> {
      const row = await current();
      return {
        configured: Boolean(settings.client),
        environment: settings.environment,
        status: row?.status ?? 'disconnected',
        endpoint_id: row?.endpoint_id ?? null,
        tin: row?.tin ?? null,
        company_name_en: row?.company_name_en ?? null,
        company_name_kh: row?.company_name_kh ?? null,
        connected_at: row?.connected_at ?? null,
        revoked_at: row?.revoked_at ?? null,
        webhook_url: settings.webhookUrl,
        problem: row?.problem ?? null,
      };
    },

    /** The address of CamInvoice's approval page, with a fresh state kept for this administrator. */
    async start(actor: Actor, redirectUrl: string): Promise<string> {
      const api = client();
      const state = oauth.generateRandomState();
      const at = now();
      await db.deleteFrom('einvoice_connect_states').where('expires_at', '<', at).execute();
      await db
        .insertInto('einvoice_connect_states')
        .values({
          state,
          user_id: actor.userId,
          expires_at: new Date(Date.now() + STATE_MINUTES * 60_000).toISOString(),
        })
        .execute();
      return api.authorizeUrl(redirectUrl, state);
    },

    /**
     * CamInvoice sent the administrator back: the callback's `state` must be one this
     * administrator was given and not yet used; then the `authToken` is exchanged for the tokens.
     */
    async finish(actor: Actor, callbackUrl: string): Promise<EInvoiceConnection> {
      const api = client();
      const url = new URL(callbackUrl);
      const given = url.searchParams.get('state') ?? '';
      const stored = await db
        .deleteFrom('einvoice_connect_states')
        .where('state', '=', given)
        .where('user_id', '=', actor.userId)
        .where('expires_at', '>', now())
        .returning('state')
        .executeTakeFirst();
      let authToken: string | null;
      try {
        const params = oauth.validateAuthResponse(
          { issuer: api.baseUrl },
          { client_id: 'depot' },
          url.searchParams,
          stored?.state ?? oauth.expectNoState,
        );
        authToken = params.get('authToken') ?? params.get('auth_token');
      } catch (error) {
        if (error instanceof oauth.AuthorizationResponseError) {
          throw new AppError(422, 'einvoice.refused', { reason: error.error_description ?? error.error });
        }
        throw new FieldError({ callback_url: [{ key: 'einvoice.state' }] });
      }
      if (!stored) throw new FieldError({ callback_url: [{ key: 'einvoice.state' }] });
      if (!authToken) throw new FieldError({ callback_url: [{ key: 'validation.required' }] });
      let answer: Awaited<ReturnType<CamInvoiceClient['connect']>>;
      try {
        answer = await api.connect(authToken);
      } catch (error) {
        if (error instanceof CamInvoiceRefused) throw new AppError(422, 'einvoice.refused', { reason: error.detail });
        if (error instanceof CamInvoiceUnreachable) throw new AppError(502, 'einvoice.unreachable');
        throw error;
      }
      const { business, tokens } = answer;
      await transaction(
        db,
        async (trx) => {
          const at = now();
          await trx.deleteFrom('einvoice_connections').execute();
          await trx
            .insertInto('einvoice_connections')
            .values({
              status: 'connected',
              endpoint_id: business.endpoint_id,
              tin: business.tin ?? null,
              company_name_en: business.company_name_en ?? null,
              company_name_kh: business.company_name_kh ?? null,
              refresh_token: seal(key, tokens.refresh_token as string),
              access_token: tokens.access_token ? seal(key, tokens.access_token) : null,
              access_expires_at: tokens.access_token ? tokens.expires_at : null,
              connected_by: actor.userId,
              connected_at: at,
              updated_at: at,
            })
            .execute();
          await recordAudit(trx, auditWho(actor), {
            action: 'einvoice.connected',
            after: { endpoint_id: business.endpoint_id, tin: business.tin ?? null },
          });
        },
        actor,
      );
      return this.status();
    },

    /** Forget the tokens: Depot stops sending; documents already cleared stay as they are. */
    async disconnect(actor: Actor): Promise<EInvoiceConnection> {
      await transaction(
        db,
        async (trx) => {
          const row = await trx.selectFrom('einvoice_connections').select(['endpoint_id']).executeTakeFirst();
          await trx.deleteFrom('einvoice_connections').execute();
          if (row)
            await recordAudit(trx, auditWho(actor), {
              action: 'einvoice.disconnected',
              before: { endpoint_id: row.endpoint_id },
            });
        },
        actor,
      );
      return this.status();
    },

    /** The endpoint id of the business connected (webhooks for other businesses are ignored). */
    async endpointId(): Promise<string | null> {
      const row = await current();
      return row?.status === 'connected' ? row.endpoint_id : null;
    },

    async lastPolled(): Promise<string | null> {
      return (await current())?.last_polled_at ?? null;
    },

    async polled(at: string): Promise<void> {
      await db
        .updateTable('einvoice_connections')
        .set({ last_polled_at: at })
        .where('status', '=', 'connected')
        .execute();
    },
  };
}

export type ConnectionService = ReturnType<typeof connectionService>;
