import { type AdminDashboard, addDays, todayInCambodia } from '@depot/contracts';
import { sql } from 'kysely';
import { type Db, isPostgres } from '../../db/database.ts';
import { migrationLevel } from '../../db/migrate.ts';

/** The start of a Cambodian day (UTC+7, no daylight saving) as the instant the audit log keeps. */
const dayStart = (day: string) => new Date(Date.parse(`${day}T00:00:00+07:00`)).toISOString();

/**
 * An administrator's morning (the dashboard's `admin` part, for audit.list): who may sign in and who
 * must change their password, sign-ins and refused sign-ins today against yesterday (the audit
 * log), the latest audit entries, and the database the server runs on with its migration. Every
 * figure links to the list behind it. What is read from the database only: `withConnections`
 * adds the real-time connections this process holds now.
 */
export async function adminDashboard(db: Db): Promise<AdminDashboard> {
  const today = todayInCambodia();
  const yesterday = addDays(today, -1);
  const [users, signIns, recent, migration] = await Promise.all([
    db
      .selectFrom('users')
      .select([
        sql<number>`sum(case when status = 'active' then 1 else 0 end)`.as('active'),
        sql<number>`sum(case when status = 'active' then 0 else 1 end)`.as('inactive'),
        sql<number>`sum(case when status = 'active' and must_change_password = 1 then 1 else 0 end)`.as('reset'),
      ])
      .where('deleted_at', 'is', null)
      .executeTakeFirst(),
    db
      .selectFrom('audit_log')
      .select([
        'action',
        sql<number>`sum(case when created_at >= ${dayStart(today)} then 1 else 0 end)`.as('today'),
        sql<number>`sum(case when created_at < ${dayStart(today)} then 1 else 0 end)`.as('yesterday'),
      ])
      .where('action', 'in', ['auth.login', 'auth.login_failed'])
      .where('created_at', '>=', dayStart(yesterday))
      .groupBy('action')
      .execute(),
    db
      .selectFrom('audit_log')
      .select(['id', 'action', 'user_name', 'created_at'])
      .orderBy('id', 'desc')
      .limit(8)
      .execute(),
    migrationLevel(db),
  ]);
  const count = (value: unknown) => Number(value ?? 0);
  const of = (action: string) => signIns.find((r) => r.action === action);
  const figure = (key: string, value: number, previous: number | null, link?: string) => ({
    key,
    kind: 'count' as const,
    value,
    previous,
    ...(link ? { link } : {}),
  });
  return {
    figures: [
      figure('users_active', count(users?.active), null, '/users'),
      figure('users_inactive', count(users?.inactive), null, '/users'),
      figure('must_change_password', count(users?.reset), null, '/users'),
      figure('sign_ins', count(of('auth.login')?.today), count(of('auth.login')?.yesterday), '/audit'),
      figure(
        'failed_sign_ins',
        count(of('auth.login_failed')?.today),
        count(of('auth.login_failed')?.yesterday),
        '/audit',
      ),
    ],
    recent: recent.map((r) => ({
      id: Number(r.id),
      action: r.action,
      user_name: r.user_name,
      created_at: new Date(r.created_at).toISOString(),
    })),
    database: {
      kind: isPostgres(db) ? 'postgres' : 'sqlite',
      migration,
    },
  };
}

/** The administrator's dashboard with the real-time connections this process holds now, its last figure. */
export function withConnections(admin: AdminDashboard, connections: number): AdminDashboard {
  return {
    ...admin,
    figures: [...admin.figures, { key: 'connections', kind: 'count', value: connections, previous: null }],
  };
}
