import { priceQuote, priceQuoteInput, single } from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.ts';
import { quotePrices } from './prices.service.ts';

/** The till's preview of a cart's prices for a customer; the checkout prices with the same rule. */
export const priceRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.post(
    '/api/prices/quote',
    {
      config: { access: 'orders.create' },
      schema: {
        tags: ['prices'],
        summary: "The unit price of each product line for a customer (their group's price list, breaks)",
        body: priceQuoteInput,
        response: { 200: single(priceQuote) },
      },
    },
    async (request) => ({ data: await quotePrices(db, request.body) }),
  );
};
