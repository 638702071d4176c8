import {
  currentRates,
  exchangeRate,
  exchangeRateInput,
  listQuery,
  paginated,
  saleSettings,
  saleSettingsInput,
  single,
  written,
} from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../access/access.ts';
import type { Db } from '../../db/database.ts';
import { say } from '../../http/locale.ts';
import { pageAnswer } from '../../kit/resource.ts';
import { auditWho } from '../audit/audit.ts';
import { rateService } from './rates.service.ts';

const pageQuery = listQuery.pick({ page: true, per_page: true });

/**
 * The exchange rate and the sale settings. Reading the current rate needs `exchange_rates.view`
 * (cashiers hold it: the till sells with it); entering a rate `exchange_rates.update`. The sale
 * settings are settings: `settings.view` and `settings.update`.
 */
export const rateRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const rates = rateService(db);

  app.get(
    '/api/exchange-rates/current',
    {
      config: { access: 'exchange_rates.view' },
      schema: {
        tags: ['exchange_rates'],
        summary: 'The current rates, riel step, VAT rate, and whether the rate is stale',
        response: { 200: single(currentRates) },
      },
    },
    async () => ({ data: await rates.current() }),
  );

  app.get(
    '/api/exchange-rates',
    {
      config: { access: 'exchange_rates.view' },
      schema: {
        tags: ['exchange_rates'],
        summary: 'Every rate entered, newest first',
        querystring: pageQuery,
        response: { 200: paginated(exchangeRate) },
      },
    },
    async (request) => {
      const { rows, total } = await rates.history(request.query);
      return pageAnswer(request, request.query, rows, total);
    },
  );

  app.post(
    '/api/exchange-rates',
    {
      config: { access: 'exchange_rates.update' },
      schema: { tags: ['exchange_rates'], body: exchangeRateInput, response: { 201: written(exchangeRate) } },
    },
    async (request, reply) => {
      const data = await rates.record(request.body, authOf(request).userId, auditWho(authOf(request)));
      return reply.code(201).send({ message: await say(request, 'rate.saved', { rate: data.rate_khr }), data });
    },
  );

  app.get(
    '/api/settings/sale',
    {
      config: { access: 'settings.view' },
      schema: {
        tags: ['settings'],
        summary: 'VAT, riel step, rate staleness, receipt texts',
        response: { 200: single(saleSettings) },
      },
    },
    async () => ({ data: await rates.saleSettings() }),
  );

  app.put(
    '/api/settings/sale',
    {
      config: { access: 'settings.update' },
      schema: { tags: ['settings'], body: saleSettingsInput, response: { 200: written(saleSettings) } },
    },
    async (request) => ({
      message: await say(request, 'settings.sale_saved'),
      data: await rates.updateSaleSettings(request.body, auditWho(authOf(request))),
    }),
  );
};
