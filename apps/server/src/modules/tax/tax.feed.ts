import type { OfficialRate } from '@depot/contracts';
import { convert } from 'xmlbuilder2';
import { type Db, now } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { type OutboundReply, outboundClient } from '../../http/outbound.ts';
import { insertOfficial, officialOnOrBefore } from './tax.repository.ts';

/**
 * The National Bank of Cambodia's daily rate, fetched from its published feed: the XML of
 * `https://www.nbc.gov.kh/api/exRate.php` (the machine-readable twin of its exchange-rate page),
 *
 *     <ExchangeRate><ex><date>…</date><key>USD/KHR</key><unit>1</unit>
 *       <bid>4011</bid><ask>4027</ask><average>4019</average></ex>…</ExchangeRate>
 *
 * one `ex` per currency. Depot keeps the USD/KHR average of the day (riel per `unit` dollars),
 * rounded up to the whole riel: the floor a market rate may not go below, so never under it. The
 * URL is the operator's (`DEPOT_RATE_FEED_URL`); a scheduled job fetches it (`scheduleRateFeed`).
 * The feed is a public address named by configuration, not by a user: the network guard (printers'
 * local networks only) does not apply. Fetched with the server's one client, `fetch`, with a time limit.
 */

export interface RateFeedConfig {
  url: string;
  /** Hours between fetches (6 by default). */
  hours?: number;
  timeoutMs?: number;
}

/** The feed did not answer, or answered something that is not the NBC's format with a USD/KHR rate. */
export class RateFeedFailed extends Error {}

/** 'YYYY-MM-DD' from the feed's date: ISO, or the month first as the NBC writes it (03/05/2026). */
function isoDate(text: string): string | null {
  const trimmed = text.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(trimmed);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(trimmed);
  if (us) return `${us[3]}-${us[1].padStart(2, '0')}-${us[2].padStart(2, '0')}`;
  return null;
}

/** The USD/KHR rate of an NBC feed's XML: its date and riel per dollar (the average, rounded up). */
export function parseNbcRates(xml: string): { date: string; rate_khr: number } {
  let parsed: unknown;
  try {
    parsed = convert(xml, { format: 'object' });
  } catch (error) {
    throw new RateFeedFailed(`not XML: ${String(error)}`);
  }
  const root = (parsed as { ExchangeRate?: { ex?: unknown } } | null)?.ExchangeRate;
  const entries = root?.ex === undefined ? [] : Array.isArray(root.ex) ? root.ex : [root.ex];
  for (const entry of entries as Record<string, unknown>[]) {
    if (
      String(entry?.key ?? '')
        .trim()
        .toUpperCase() !== 'USD/KHR'
    )
      continue;
    const date = isoDate(String(entry.date ?? ''));
    const average = Number(String(entry.average ?? '').replace(/,/g, ''));
    const unit = Number(String(entry.unit ?? '1')) || 1;
    const rate = Math.ceil(average / unit);
    if (!date || !Number.isFinite(average) || rate < 1000 || rate > 10_000) {
      throw new RateFeedFailed('the USD/KHR entry has no date or a rate out of range');
    }
    return { date, rate_khr: rate };
  }
  throw new RateFeedFailed('no USD/KHR entry');
}

/** Asks the feed for today's rate. */
export async function fetchNbcRate(config: RateFeedConfig): Promise<{ date: string; rate_khr: number }> {
  const feed = outboundClient({ baseUrl: config.url, timeoutMs: config.timeoutMs ?? 10_000 });
  let reply: OutboundReply;
  try {
    reply = await feed.request('', { as: 'text', headers: { accept: 'application/xml, text/xml' } });
  } catch (error) {
    throw new RateFeedFailed(String(error));
  }
  if (reply.status < 200 || reply.status > 299) throw new RateFeedFailed(`HTTP ${reply.status}`);
  return parseNbcRates(String(reply.body));
}

/**
 * Fetches the NBC's rate and keeps it, unless the same rate of the same day is kept already (a
 * fetch every few hours adds a row only when the NBC publishes). Answers the rate kept, new or not.
 */
export async function pullNbcRate(db: Db, config: RateFeedConfig): Promise<OfficialRate> {
  const fetched = await fetchNbcRate(config);
  return transaction(db, async (trx) => {
    const known = await officialOnOrBefore(trx, 'nbc_daily', fetched.date);
    if (known && known.date === fetched.date && known.rate_khr === fetched.rate_khr) return known;
    return insertOfficial(trx, { kind: 'nbc_daily', ...fetched, source: 'feed', created_by: null, created_at: now() });
  });
}

interface Log {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** The feed, fetched at start and every `hours` after; a failure is logged and the next fetch tries again. */
export function scheduleRateFeed(db: Db, config: RateFeedConfig, log: Log) {
  let stopped = false;
  const pull = async () => {
    try {
      const rate = await pullNbcRate(db, config);
      log.info({ date: rate.date, rate_khr: rate.rate_khr }, 'NBC rate fetched');
    } catch (error) {
      log.warn({ err: error, url: config.url }, 'NBC rate feed failed');
    }
  };
  const first = setTimeout(() => void pull(), 5_000);
  const timer = setInterval(() => void pull(), (config.hours ?? 6) * 3_600_000);
  first.unref();
  timer.unref();
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
