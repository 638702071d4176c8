import type { z } from 'zod';

/** The router state between a form and its review (a purchase, a combo). */
export interface DraftState<D> {
  draft?: D;
  /** The server's 422, to show on the form's fields. */
  errors?: Record<string, string[]>;
  /** The list that opened the form, at its page and filters. */
  back?: string;
  list?: string;
}

/**
 * A form's draft on its way to the review: in the router's state and in sessionStorage under `key`,
 * so a reload of either page keeps it. What is read back is checked with `schema`: a draft of an
 * older shape of the page is dropped, never half used.
 */
export function draftStore<D>(key: string, schema: z.ZodType<D>) {
  return {
    save(draft: D): void {
      try {
        sessionStorage.setItem(key, JSON.stringify(draft));
      } catch {
        // A full or refused storage only loses the reload copy; the router's state still has it.
      }
    },
    /** The draft a reload left behind, or null (none, or a shape from an older version of the page). */
    load(): D | null {
      try {
        const raw = sessionStorage.getItem(key);
        if (!raw) return null;
        const parsed = schema.safeParse(JSON.parse(raw));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
    clear(): void {
      sessionStorage.removeItem(key);
    },
    /** The router's state as the pages use it, its draft checked like a stored one. */
    state(value: unknown): DraftState<D> {
      if (!value || typeof value !== 'object') return {};
      const state = value as DraftState<D>;
      const draft = state.draft ? schema.safeParse(state.draft) : null;
      return { ...state, draft: draft?.success ? draft.data : undefined };
    },
  };
}
