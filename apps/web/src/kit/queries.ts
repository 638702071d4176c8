import { type Locale, paginated, single, translate, written } from '@depot/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import type { z } from 'zod';
import { ApiError, api } from '../lib/http.ts';
import type { ResourceDef, Row } from './resource.ts';

/**
 * Every resource query starts with 'resource', so a write refreshes every list and record it may
 * have changed (a sub-category's category shows its count; a unit its base unit's name).
 */
const ROOT = 'resource';

export function listKey(api: string, query: string) {
  return [ROOT, api, 'list', query] as const;
}

export function recordKey(api: string, id: number) {
  return [ROOT, api, 'record', id] as const;
}

/** One page of a list; `query` is the API's query string (`page=1&per_page=20&…`). */
export function useList<R extends Row>(def: Pick<ResourceDef<R>, 'api' | 'row'>, query: string, enabled = true) {
  return usePage(def.api, def.row, query, enabled);
}

/**
 * One page of any paginated answer, rows with an id or not (a product's stock in a store). Under the
 * same root as the resources, so every write refreshes it.
 */
export function usePage<T>(path: string, row: z.ZodType<T>, query: string, enabled = true) {
  return useQuery({
    queryKey: listKey(path, query),
    queryFn: ({ signal }) => api(`${path}?${query}`, { signal, schema: paginated(row) }),
    // The table keeps the old page on screen while the next one loads, rather than blinking empty.
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** A query key under the resources' root: anything a write may change (the low-stock count). */
export function resourceKey(...parts: (string | number)[]) {
  return [ROOT, ...parts] as const;
}

/** Every list and record shown is read again: after a write of a page's own (a transfer sent). */
export function useRefreshAll() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: [ROOT] });
}

/**
 * A page's own write done (a payment, a transfer sent): the server's message shown and every list
 * and record read again (the promise ends when they are).
 */
export function useWritten() {
  const { message } = App.useApp();
  const refresh = useRefreshAll();
  return (answer: { message: string }) => {
    void message.success(answer.message);
    return refresh();
  };
}

export function useRecord<R extends Row>(def: Pick<ResourceDef<R>, 'api' | 'row'>, id: number | null | undefined) {
  return useQuery({
    queryKey: recordKey(def.api, id ?? 0),
    queryFn: async ({ signal }) => (await api(`${def.api}/${id}`, { signal, schema: single(def.row) })).data,
    enabled: Boolean(id),
  });
}

type Write = { action: 'create'; body: unknown } | { action: 'update'; id: number; body: unknown };

/** Create, update, delete and restore; each answers `{message, data}` and refreshes the resource queries. */
export function useWrite<R extends Row>(def: Pick<ResourceDef<R>, 'api' | 'row'>) {
  const client = useQueryClient();
  const answer = written(def.row) as z.ZodType<{ message: string; data: R }>;
  const done = () => client.invalidateQueries({ queryKey: [ROOT] });
  const save = useMutation({
    mutationFn: (write: Write) =>
      write.action === 'create'
        ? api(def.api, { method: 'POST', body: write.body, schema: answer })
        : api(`${def.api}/${write.id}`, { method: 'PUT', body: write.body, schema: answer }),
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: (id: number) => api(`${def.api}/${id}`, { method: 'DELETE', schema: answer }),
    onSuccess: done,
  });
  const restore = useMutation({
    mutationFn: (id: number) => api(`${def.api}/${id}/restore`, { method: 'POST', schema: answer }),
    onSuccess: done,
  });
  /** For writes of its own (a picture, an import): every list and record shown is read again. */
  const refresh = done;
  return { save, remove, restore, refresh };
}

/** What to tell the user when a request failed: the server's own words, else a generic message. */
export function failureMessage(error: unknown, locale: Locale): string {
  if (error instanceof ApiError && error.body?.message) return error.body.message;
  return translate('error.server', locale);
}

/**
 * A page's own write that is no resource's (a user's coverage, a role's members): `send` runs it,
 * its answer's message is shown and every query read again; a failure is `problem`, in the
 * server's words, until the next try.
 */
export function usePageWrite<B>(write: (body: B) => Promise<{ message: string }>, locale: Locale) {
  const { message } = App.useApp();
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: write,
    onSuccess: (answer) => {
      void message.success(answer.message);
      void client.invalidateQueries();
    },
  });
  return {
    send: (body: B) => mutation.mutateAsync(body).catch(() => undefined),
    saving: mutation.isPending,
    problem: mutation.error ? failureMessage(mutation.error, locale) : null,
  };
}
