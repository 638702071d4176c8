import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { registerAccess } from './access/access.ts';
import type { Db } from './db/database.ts';
import { registerErrorHandler } from './http/errors.ts';
import { registerHeaders } from './http/headers.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { registerLocale } from './http/locale.ts';
import { networkGuard, type PortRanges, PRINTER_PORTS, parsePorts } from './http/network-guard.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerTextGuard } from './http/text.ts';
import { registerValidation } from './http/validation.ts';
import { registerWeb } from './http/web.ts';
import { registerUploads } from './kit/images.ts';
import type { Shared } from './kit/redis.ts';
import { registerResource } from './kit/resource.ts';
import { ensureSearchIndexes } from './kit/search.ts';
import { shareTotals } from './kit/totals.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { authService } from './modules/auth/auth.service.ts';
import { LoginThrottle, RedisLoginThrottle, type ThrottleLimits } from './modules/auth/login-throttle.ts';
import { brands, categories, subCategories, units } from './modules/catalogue/catalogue.resources.ts';
import { combos } from './modules/combos/combos.resources.ts';
import { comboRoutes } from './modules/combos/combos.routes.ts';
import { creditRoutes } from './modules/credit/credit.routes.ts';
import { discounts } from './modules/discounts/discounts.resources.ts';
import { displayRoutes } from './modules/display/display.routes.ts';
import { displayService } from './modules/display/display.service.ts';
import { einvoiceRoutes } from './modules/einvoice/einvoice.routes.ts';
import { type EInvoiceOptions, type EInvoicing, einvoicing } from './modules/einvoice/einvoice.service.ts';
import { geographyResources } from './modules/geography/geography.resources.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import type { BakongConfig } from './modules/khqr/bakong.ts';
import { khqrRoutes } from './modules/khqr/khqr.routes.ts';
import { labelsRoutes } from './modules/labels/labels.routes.ts';
import {
  type NotificationRaiser,
  notificationRaiser,
  raiseNotifications,
  scheduleExpiryChecks,
} from './modules/notifications/notifications.raise.ts';
import { notificationRoutes } from './modules/notifications/notifications.routes.ts';
import { notificationService } from './modules/notifications/notifications.service.ts';
import { invoices, orders } from './modules/orders/orders.resources.ts';
import { orderRoutes } from './modules/orders/orders.routes.ts';
import { partyResources } from './modules/parties/parties.resources.ts';
import { priceResources } from './modules/prices/prices.resources.ts';
import { priceRoutes } from './modules/prices/prices.routes.ts';
import { registerPriceTransfer } from './modules/prices/prices.transfer.ts';
import { printers, printersResource } from './modules/printing/printers.resources.ts';
import { printingRoutes } from './modules/printing/printing.routes.ts';
import { registerProductImages } from './modules/products/products.images.ts';
import { products } from './modules/products/products.resources.ts';
import { registerProductSnapshot } from './modules/products/products.snapshot.ts';
import { tillProducts } from './modules/products/products.till.ts';
import { registerProductTransfer } from './modules/products/products.transfer.ts';
import { profileRoutes } from './modules/profile/profile.routes.ts';
import { profileService } from './modules/profile/profile.service.ts';
import { purchases } from './modules/purchases/purchases.resources.ts';
import { purchaseRoutes } from './modules/purchases/purchases.routes.ts';
import { rateRoutes } from './modules/rates/rates.routes.ts';
import { reportRoutes } from './modules/reports/reports.routes.ts';
import { roles } from './modules/roles/roles.resources.ts';
import { rolesRoutes } from './modules/roles/roles.routes.ts';
import { sampleRoutes } from './modules/samples/samples.routes.ts';
import { sampleService } from './modules/samples/samples.service.ts';
import { scaleRoutes } from './modules/scale/scale.routes.ts';
import { serialRoutes } from './modules/serials/serials.routes.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { settingsService } from './modules/settings/settings.service.ts';
import { shiftRoutes } from './modules/shifts/shifts.routes.ts';
import { shifts } from './modules/shifts/shifts.service.ts';
import { countRoutes } from './modules/stock/counts.routes.ts';
import { counts } from './modules/stock/counts.ts';
import { stockRoutes } from './modules/stock/stock.routes.ts';
import { transfers } from './modules/stock/transfers.ts';
import { registerTaxEInvoiceSources } from './modules/tax/tax.einvoice.ts';
import type { RateFeedConfig } from './modules/tax/tax.feed.ts';
import { taxRoutes } from './modules/tax/tax.routes.ts';
import { users } from './modules/users/users.resources.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { approvalService } from './policies/approval.ts';
import { broadcastingRoutes } from './realtime/broadcasting.routes.ts';
import { broadcastDomainEvents } from './realtime/domain.ts';
import { createRealtime, type Realtime, type RealtimeSettings } from './realtime/realtime.ts';

/** Every resource the kit serves (their routes, and their search indexes kept at start-up). */
export const resourceDefinitions = [
  brands,
  categories,
  subCategories,
  units,
  products,
  ...geographyResources,
  ...partyResources,
  ...priceResources,
  purchases,
  transfers,
  counts,
  discounts,
  combos,
  orders,
  invoices,
  printers,
  users,
  roles,
  shifts,
] as const;

export interface AppOptions {
  db: Db;
  /** Where the built web app is; absent, only the API is served. */
  webDist?: string;
  /** Where uploaded pictures are kept. */
  uploadsDir: string;
  logLevel?: string;
  /** Which proxies' X-Forwarded-For to believe (config.ts trustProxyOf): false, hops or addresses. */
  trustProxy?: false | number | string[];
  throttle?: ThrottleLimits;
  /** A sign-in's absolute lifetime in days (30 by default). */
  sessionMaxDays?: number;
  /** Redis, when several processes serve one database (REDIS_URL): what they must count together. */
  shared?: Shared;
  /** Bakong's payment check for KHQR; absent, cashiers confirm KHQR payments by hand. */
  bakong?: BakongConfig | null;
  /** The NBC's rate feed (DEPOT_RATE_FEED_URL): `POST /api/official-rates/fetch` asks it; absent, rates are entered by hand. */
  rateFeed?: RateFeedConfig | null;
  /** How long a till's dynamic KHQR may be paid, in minutes (BAKONG_QR_MINUTES, at most 10). */
  khqrMinutes?: number;
  /** How long a network printer may take to accept a job (5 s by default). */
  printerTimeoutMs?: number;
  /**
   * Where the server may connect for a printer (http/network-guard.ts): the ports (PRINTER_PORTS;
   * absent, 9100-9109 and 515). `allowLoopback` is for tests alone, whose fake printers listen on
   * 127.0.0.1.
   */
  printerNetwork?: { ports?: PortRanges; allowLoopback?: boolean };
  /** Real time (driver, keys, timeouts); absent, the embedded endpoint with generated keys. */
  realtime?: RealtimeSettings;
  /** CamInvoice e-invoicing (credentials, keys, schedule); absent, not configured (the screen says so). */
  einvoice?: EInvoiceOptions;
  /** Hours between checks for batches near their expiry (notifications); absent, no schedule (tests). */
  expiryCheckHours?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Real time: `broadcast(channels, event, payload)` for the rest of the server. */
    realtime: Realtime;
    /** E-invoicing with CamInvoice: the connection, the outbox, received documents (modules/einvoice). */
    einvoicing: EInvoicing;
    /** What domain events notify (the bus's listener); `expiringBatches()` the periodic check. */
    notifications: NotificationRaiser;
  }
}

/**
 * TRUST_PROXY for Fastify: addresses as they are; a number of hops as a function trusting that
 * many addresses from the connection's end of X-Forwarded-For (this Fastify takes a bare number for
 * "trust nothing"), so the client's address is the one the outermost trusted proxy saw, and what a
 * client writes at the start of the header is never believed.
 */
function trustProxyOption(
  trust: AppOptions['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust ?? false;
}

/** Builds the whole server without listening: tests use `app.inject`, main.ts calls `listen`. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logLevel && options.logLevel !== 'silent' ? { level: options.logLevel } : false,
    genReqId: () => randomUUID(),
    trustProxy: trustProxyOption(options.trustProxy),
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  // `Content-Type: application/json` with an empty body (the spec's logout) reads as no body.
  const json = app.getDefaultJsonParser('error', 'remove');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    return json(request, body as string, done);
  });

  // Khmer answers' numerals follow the system setting (read when a message is written)
  registerLocale(app, async () => (await settingsService(options.db).publicSettings()).khmer_numerals);
  registerValidation(app);
  registerTextGuard(app);
  registerErrorHandler(app);
  // before any route or plugin, so every answer has them (the real-time endpoint is made further on):
  // helmet's hardening, the CSP and the request id
  await registerHeaders(app, () => app.realtime.clientConfig());

  // the API's description at /api/docs, generated from the routes (http/openapi.ts)
  await registerOpenApi(app);

  const { db, shared } = options;
  if (shared) shareTotals(db, shared);
  // sign-ins and managers' approvals at the till share one throttle of failed passwords
  const throttle = shared ? new RedisLoginThrottle(shared, options.throttle) : new LoginThrottle(options.throttle);
  const auth = authService(db, throttle, { sessionMaxDays: options.sessionMaxDays });
  const approvals = approvalService(auth);
  registerAccess(app, auth.authenticate);
  registerIdempotency(app, db);

  const realtime = await createRealtime({ db, server: app.server, settings: options.realtime, log: app.log });
  app.decorate('realtime', realtime);
  const settings = settingsService(db, options.uploadsDir, realtime);
  // before the HTTP server closes: clients are told to reconnect (to another process) and presence is left
  app.addHook('preClose', () => realtime.close());

  await app.register(healthRoutes);
  await app.register(authRoutes, { auth });
  await registerUploads(app, options.uploadsDir);
  await app.register(settingsRoutes, { settings });
  await app.register(scaleRoutes, { db });
  await app.register(reportRoutes, { db });
  await app.register(profileRoutes, {
    profiles: profileService(db, options.uploadsDir),
    settings,
    uploadsDir: options.uploadsDir,
  });
  // the one gate of connections to addresses users type: printers, saved and used
  const printerGuard = networkGuard({
    ports: options.printerNetwork?.ports ?? parsePorts(PRINTER_PORTS),
    allowLoopback: options.printerNetwork?.allowLoopback ?? false,
  });
  await ensureSearchIndexes(db, resourceDefinitions);
  await app.register(async (scope) => {
    for (const def of resourceDefinitions) {
      registerResource(scope, db, (def === printers ? printersResource(printerGuard) : def) as never);
    }
    // the products' index and writes are `products`'s: this one only reads (the till before its sync)
    registerResource(scope, db, tillProducts);
  });
  await app.register(stockRoutes, { db });
  await app.register(countRoutes, { db });
  await app.register(purchaseRoutes, { db });
  await app.register(serialRoutes, { db });
  await app.register(comboRoutes, { db });
  await app.register(priceRoutes, { db });
  await app.register(rateRoutes, { db });
  await app.register(orderRoutes, { db, approvals });
  await app.register(shiftRoutes, { db, approvals, settings });
  await app.register(creditRoutes, { db });
  await app.register(khqrRoutes, { db, bakong: options.bakong ?? null, tillMinutes: options.khqrMinutes });
  await app.register(taxRoutes, { db, rateFeed: options.rateFeed ?? null });
  // the outbox reads tax invoices, credit and debit notes through the tax module's snapshots
  registerTaxEInvoiceSources();
  const einvoices = await einvoicing(db, options.einvoice ?? {}, app.log);
  app.decorate('einvoicing', einvoices);
  app.addHook('onClose', () => einvoices.stop());
  await app.register(einvoiceRoutes, { einvoicing: einvoices });
  await app.register(printingRoutes, { db, timeoutMs: options.printerTimeoutMs ?? 5000, guard: printerGuard });
  await app.register(labelsRoutes, { db, timeoutMs: options.printerTimeoutMs ?? 5000, guard: printerGuard });
  await app.register(usersRoutes, { db });
  await app.register(rolesRoutes, { db });
  await app.register(auditRoutes, { db });
  await app.register(broadcastingRoutes, { realtime, db });
  await app.register(displayRoutes, { displays: displayService(db, throttle, realtime) });
  // every domain event, after its commit, on its channels (realtime/domain.ts)
  const stopBroadcasting = broadcastDomainEvents(db, realtime);
  app.addHook('onClose', async () => stopBroadcasting());
  // notifications raised from the same events, after their commit (notifications.raise.ts)
  const notifications = notificationService(db, realtime);
  const raiser = notificationRaiser(db, notifications);
  app.decorate('notifications', raiser);
  const stopRaising = raiseNotifications(db, raiser);
  const expiryChecks = options.expiryCheckHours
    ? scheduleExpiryChecks(raiser, app.log, options.expiryCheckHours)
    : null;
  app.addHook('onClose', async () => {
    stopRaising();
    expiryChecks?.stop();
  });
  await app.register(notificationRoutes, { notifications });
  await registerProductImages(app, db, options.uploadsDir);
  await registerProductSnapshot(app, db);
  await registerProductTransfer(app, db);
  await registerPriceTransfer(app, db);
  await app.register(sampleRoutes, { samples: sampleService(db, options.uploadsDir) });
  await registerWeb(app, options.webDist ?? '', settings, realtime);

  return app;
}
