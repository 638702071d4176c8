import type { Locale } from '@depot/contracts';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import type { z } from 'zod';

/** What every row of every resource has (contracts' `recordFields`). */
export interface Row {
  id: number;
  deleted_at: string | null;
}

/** The page's language and its translator; definitions build their labels from it. */
export interface Ctx {
  t: TFunction;
  locale: Locale;
}

export interface Column<R> {
  key: string;
  title: string;
  /** The header is drawn empty (a picture): `title` is for screen readers only. */
  unseen?: boolean;
  /** The API's sort name (`?sort=name` / `?sort=-name`); absent, the column does not sort. */
  sort?: string;
  render: (row: R) => ReactNode;
  width?: number;
  /**
   * The column's text wraps within `width` (names, a supplier, a store). Other columns keep to one
   * line, so a money figure or a date never breaks (kit/table.ts).
   */
  wrap?: boolean;
}

/** A `filter[name]=value` control above the table. Values travel as strings, as in the address. */
export interface Filter {
  name: string;
  label: string;
  options?: { value: string; label: string }[];
  /** A control of its own (a select loaded from the server), instead of fixed options. */
  render?: (value: string | undefined, onChange: (value: string | undefined) => void) => ReactNode;
}

export interface Field {
  /** The input schema's key; its part of the schema validates the field as the user types. */
  name: string;
  label: string;
  control: ReactNode;
  help?: ReactNode;
  /** The control's value property when it is not `value` (a Switch's `checked`). */
  valuePropName?: string;
  /** Half the form's width, beside the next half field (SKU beside barcode). */
  half?: boolean;
  /** The record's key the field starts from, when not its own name (a picture shows `image_url`). */
  from?: string;
  /**
   * Shown only while the form's values say so (a discount's product, for a product discount). A
   * hidden field keeps its value; the schema and the server decide what it means.
   */
  when?: (values: Record<string, unknown>) => boolean;
  /**
   * Shown but not editable for this record (undefined: a new one), from the abilities the server
   * sent with it: a store's payee account for whoever may not change it. The value is sent back as
   * it was; the server judges the write either way.
   */
  readOnly?: (record: Row | undefined) => boolean;
}

/**
 * One entity for the kit: where it lives, its schemas and what its list and form show. The list
 * page, the form page and the routes come from this; nothing else is written per entity.
 */
export interface ResourceDef<R extends Row = Row> {
  /** The screen's path in SCREENS: `/brands` (its `/create` and `/update/:id` follow). */
  screen: string;
  /** The API path under /api: `brands`, `sub-categories`. */
  api: string;
  /** The permission resource: `sub_categories` → `sub_categories.create`, … */
  resource: string;
  row: z.ZodType<R>;
  input: z.ZodObject;
  texts: (t: TFunction) => { title: string; create: string; edit: string };
  /** How a record is named in confirmations ("Delete “Coca-Cola”?"). */
  label: (row: R, locale: Locale) => string;
  columns: (ctx: Ctx) => Column<R>[];
  filters?: (ctx: Ctx) => Filter[];
  fields: (ctx: Ctx) => Field[];
  /** A new record's values, where the schema's defaults do not say. */
  defaults?: Record<string, unknown>;
  /** Without it, the server's default order; with it, e.g. Khmer names in Khmer. */
  defaultSort?: (locale: Locale) => string;
  /** False hides Delete for a record the server would refuse anyway (the walk-in customer). */
  deletable?: (row: R) => boolean;
  /** False hides Edit for a record the server would refuse to change (a purchase partly received). */
  editable?: (row: R) => boolean;
  /** False: the API keeps no deleted records to show (no "Show deleted" switch). */
  trashable?: boolean;
  /** More buttons in a row's actions, before Edit and Delete (a transfer's details). */
  rowActions?: (row: R, ctx: Ctx) => ReactNode;
  /** What the search box searches, when more than names ("Number or note…"). */
  searchHint?: (t: TFunction) => string;
  /** Shown under the table (the gazetteer's licence asks for its attribution where it is listed). */
  footer?: (ctx: Ctx) => ReactNode;
  /** Parameters every list request carries: a list that is a fixed view of another (expired products). */
  listParams?: Record<string, string>;
  /** Where the create and update screens are when not under `screen` (the expired list edits products). */
  formScreen?: string;
  /** False: the list offers no Create button (a view of records made elsewhere). */
  creatable?: boolean;
  /** More buttons beside Create, given the list's current query (an export of what is shown). */
  toolbar?: (ctx: Ctx, query: string) => ReactNode;
  /** Rows may be ticked (across pages); what to do with the ticked rows, beside the toolbar. */
  selection?: (ctx: Ctx, rows: R[]) => ReactNode;
  /**
   * Runs after the record is saved, with the form's values, for what is not part of the JSON body
   * (a product's picture is uploaded on its own). A failure is shown; the record stays saved.
   */
  afterSave?: (saved: R, values: Record<string, unknown>, before: R | undefined) => Promise<void>;
  /** Shown under an existing record's form, for who holds `belowPermission` (a store's printers). */
  below?: (record: R) => ReactNode;
  belowPermission?: string;
}

/** Keeps the row type between the schema and the callbacks. */
export function defineResource<R extends Row>(def: ResourceDef<R>): ResourceDef<R> {
  return def;
}

/** Khmer first in Khmer, English first in English: for pairs of columns or fields. */
export function khmerFirst<T>(locale: Locale, kh: T, en: T): T[] {
  return locale === 'kh' ? [kh, en] : [en, kh];
}

/** A record's name in the page's language, falling back to the other one. */
export function localName(row: { name_kh?: string | null; name_en?: string | null }, locale: Locale): string {
  return (locale === 'kh' ? row.name_kh || row.name_en : row.name_en || row.name_kh) ?? '';
}
