import fs from 'node:fs';
import path from 'node:path';
import {
  ACTIONS,
  AGEING_BUCKETS,
  AUDIT_ACTIONS,
  CONNECTION_STATES,
  EINVOICE_STATUSES,
  NOTIFICATION_STATUSES,
  NOTIFICATION_TYPES,
  OFFICIAL_RATE_KINDS,
  PRICE_SOURCES,
  RATE_POLICIES,
  RATE_SOURCES,
  REPORT_GROUPS,
  RESOURCES,
  SAMPLE_STATUSES,
  SAMPLE_TABLES,
  SCREENS,
  SERIAL_STATUSES,
  STATEMENT_KINDS,
  TAX_CATEGORIES,
  TAX_DOCUMENT_KINDS,
  TENDER_METHODS,
} from '@depot/contracts';
import { describe, expect, it } from 'vitest';
import en from './en.json';
import kh from './kh.json';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[name] = value;
    else Object.assign(out, flatten(value, name));
  }
  return out;
}

const catalogues = { kh: flatten(kh), en: flatten(en) };
const KHMER = /[\u1780-\u17FF]/;
/** i18next's plural forms: `x_one` and `x_other` are what `t('x', { count })` reads. */
const PLURAL = /_(zero|one|two|few|many|other)$/;

/**
 * The keys the source reads with a literal `t('…')` (each must be translated), and every quoted
 * dotted name (a bilingual sheet's `both(t, '…')`, a map of titles by kind): a catalogue message
 * named either way is in use.
 */
function keysUsedInSource(): { used: Set<string>; quoted: Set<string> } {
  const root = path.resolve(import.meta.dirname, '..');
  const used = new Set<string>();
  const quoted = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.includes('.test.')) {
        const source = fs.readFileSync(file, 'utf8');
        for (const match of source.matchAll(/\bt\(\s*'([\w.]+)'/g)) used.add(match[1]);
        for (const match of source.matchAll(/'([a-z]\w*(?:\.\w+)+)'/g)) quoted.add(match[1]);
        // Template keys such as t(`colorMode.${mode}`) are checked through their known values below.
      }
    }
  };
  walk(root);
  return { used, quoted };
}

describe('message catalogues', () => {
  it('have the same keys in Khmer and English', () => {
    const missingInKh = Object.keys(catalogues.en).filter((key) => !(key in catalogues.kh));
    const missingInEn = Object.keys(catalogues.kh).filter((key) => !(key in catalogues.en));
    expect({ missingInKh, missingInEn }).toEqual({ missingInKh: [], missingInEn: [] });
  });

  const source = keysUsedInSource();
  const used = [
    ...source.used,
    ...SCREENS.flatMap((screen) => (screen.menu ? [screen.menu] : [])),
    ...SCREENS.flatMap((screen) => (screen.group ? [screen.group] : [])),
    ...['light', 'dark', 'system'].map((mode) => `colorMode.${mode}`),
    ...['name', 'password'].flatMap((field) => [`login.${field}`, `login.${field}Placeholder`]),
    ...[...CONNECTION_STATES, 'offline', 'reconnecting'].flatMap((state) => [
      `realtime.state.${state}`,
      `realtime.help.${state}`,
    ]),
    ...NOTIFICATION_STATUSES.map((status) => `notifications.status.${status}`),
    ...REPORT_GROUPS.map((group) => `reports.groups.${group}`),
    // credit: ageing buckets, tender methods, statement lines
    ...AGEING_BUCKETS.map((bucket) => `credit.bucket.${bucket}`),
    ...TENDER_METHODS.map((method) => `credit.methods.${method}`),
    ...STATEMENT_KINDS.map((kind) => `credit.kinds.${kind}`),
    ...PRICE_SOURCES.map((source) => `prices.source.${source}`),
    ...['today', 'yesterday', 'week', 'month', 'last_month'].map((preset) => `reports.presets.${preset}`),
    ...[...NOTIFICATION_STATUSES, 'archive'].map((view) => `notifications.empty.${view}`),
    ...NOTIFICATION_TYPES.flatMap((type) => [`notifications.types.${type}.title`, `notifications.types.${type}.text`]),
    'notifications.types.unknown.title',
    ...SAMPLE_STATUSES.map((status) => `samples.status.${status}`),
    // CamInvoice: documents' and the connection's states, the platform
    ...EINVOICE_STATUSES.map((status) => `einvoice.status.${status}`),
    ...['connected', 'revoked', 'disconnected'].map((status) => `einvoice.connectionStatus.${status}`),
    ...['sandbox', 'production'].map((environment) => `einvoice.environments.${environment}`),
    ...SAMPLE_TABLES.map((table) => `samples.table.${table}`),
    ...TAX_DOCUMENT_KINDS.map((kind) => `tax.kind.${kind}`),
    ...RATE_SOURCES.map((source) => `tax.source.${source}`),
    ...RATE_POLICIES.map((policy) => `tax.policies.${policy}`),
    ...OFFICIAL_RATE_KINDS.map((kind) => `tax.officialKind.${kind}`),
    ...['manual', 'feed'].map((source) => `tax.officialSource.${source}`),
    ...TAX_CATEGORIES.map((category) => `tax.category.${category}`),
    ...SERIAL_STATUSES.map((status) => `serials.status.${status}`),
    // the audit trail's actions, the permission matrix's rows and columns
    ...AUDIT_ACTIONS.map((action) => `audit.action.${action.replace('.', '_')}`),
    ...ACTIONS.map((action) => `permissions.action.${action}`),
    ...Object.keys(RESOURCES).map((resource) => `permissions.${resource}`),
    // sentences with an optional part, chosen by i18next's context
    ...['batch_expiring.text_lot', 'delivery_to_prepare.text_customer', 'purchase_received.text_supplier'].map(
      (key) => `notifications.types.${key}`,
    ),
  ];

  it('have a translation for every key the code uses', () => {
    expect(used.length).toBeGreaterThan(20);
    const has = (catalogue: Record<string, string>, key: string) => key in catalogue || `${key}_other` in catalogue;
    const missing = used.filter((key) => !has(catalogues.en, key) || !has(catalogues.kh, key));
    expect(missing).toEqual([]);
  });

  it('carry no messages the code no longer uses', () => {
    const unused = Object.keys(catalogues.en).filter(
      (key) => !used.includes(key.replace(PLURAL, '')) && !source.quoted.has(key.replace(PLURAL, '')),
    );
    expect(unused).toEqual([]);
  });

  it('are written in Khmer on the Khmer side, not copied from English', () => {
    // a text of figures and signs alone ("1 $ = {{rate}}") is the same in both languages
    const notKhmer = Object.entries(catalogues.kh)
      .filter(([, value]) => !KHMER.test(value) && /[A-Za-z]/.test(value.replace(/\{\{\w+\}\}/g, '')))
      .map(([key]) => key);
    expect(notKhmer).toEqual([]);
  });

  it('give every English plural both forms, and count them with {{count}}', () => {
    const plurals = Object.keys(catalogues.en).filter((key) => PLURAL.test(key));
    expect(plurals.length).toBeGreaterThan(0);
    const broken = plurals.filter((key) => {
      const base = key.replace(PLURAL, '');
      return (
        !(`${base}_one` in catalogues.en && `${base}_other` in catalogues.en) ||
        !catalogues.en[key].includes('{{count}}')
      );
    });
    expect(broken).toEqual([]);
  });

  it('have no empty messages', () => {
    const empty = Object.entries({ ...catalogues.kh, ...catalogues.en }).filter(([, value]) => !value.trim());
    expect(empty).toEqual([]);
  });
});
