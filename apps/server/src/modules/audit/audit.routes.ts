import { auditEntry, auditQuery, paginated } from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { pageAnswer } from '../../kit/resource.ts';

const parse = (text: string | null): unknown => {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** The audit trail, read only: `GET /api/audit` with search and filters. No route changes it. */
export const auditRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/audit',
    {
      config: { access: 'audit.list' },
      schema: {
        tags: ['audit'],
        summary:
          'The audit trail, newest first: who did what, when, from where, before and after. Search looks in names, actions and addresses; filters: action, user, subject, dates (YYYY-MM-DD, inclusive)',
        querystring: auditQuery,
        response: { 200: paginated(auditEntry) },
      },
    },
    async (request) => {
      const q = request.query;
      let query = db.selectFrom('audit_log');
      if (q['filter[action]']) query = query.where('action', '=', q['filter[action]']);
      if (q['filter[user_id]']) query = query.where('user_id', '=', q['filter[user_id]']);
      if (q['filter[subject_type]']) query = query.where('subject_type', '=', q['filter[subject_type]']);
      if (q['filter[subject_id]']) query = query.where('subject_id', '=', q['filter[subject_id]']);
      if (q['filter[from]']) query = query.where('created_at', '>=', `${q['filter[from]']}T00:00:00.000Z`);
      if (q['filter[to]']) query = query.where('created_at', '<', nextDay(q['filter[to]']));
      if (q.search) {
        const like = `%${q.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        query = query.where((eb) =>
          eb.or([
            eb(sql`lower(coalesce(user_name, ''))`, 'like', sql`${like} escape '\\'`),
            eb(sql`lower(action)`, 'like', sql`${like} escape '\\'`),
            eb(sql`coalesce(ip, '')`, 'like', sql`${like} escape '\\'`),
            eb(sql`lower(coalesce(subject_type, ''))`, 'like', sql`${like} escape '\\'`),
          ]),
        );
      }
      const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      const rows = await query
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(q.per_page)
        .offset((q.page - 1) * q.per_page)
        .execute();
      return pageAnswer(
        request,
        q,
        rows.map((row) => ({ ...row, before: parse(row.before), after: parse(row.after) })),
        Number(total),
      );
    },
  );
};

function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString();
}
