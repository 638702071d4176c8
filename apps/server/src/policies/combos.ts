import { COMBO_COST_FIELDS, type ComboAction, type ComboDetail, type ComboItem } from '@depot/contracts';
import { notFound } from '../http/errors.ts';
import { type Actor, can, definePolicy, hideCosts, rule } from './policy.ts';

/** What the rules read of a combo. */
export interface ComboFacts {
  deleted_at: string | null;
}

/**
 * Combos: the catalogue's, not a store's. Editing and deleting need a live combo, restoring a
 * deleted one. What a combo costs and makes (its cost, profit, margin, each item's cost) is
 * `costs.view`'s: left out without it, and the list refuses to sort by it.
 */
export const comboPolicy = definePolicy<ComboFacts, ComboAction>({
  visible: () => true,
  actions: {
    update: (actor, combo) =>
      rule(actor)
        .permission('combos.update')
        .state(combo.deleted_at === null, notFound)
        .done(),
    delete: (actor, combo) =>
      rule(actor)
        .permission('combos.delete')
        .state(combo.deleted_at === null, notFound)
        .done(),
    restore: (actor, combo) =>
      rule(actor)
        .permission('combos.restore')
        .state(combo.deleted_at !== null, notFound)
        .done(),
  },
});

/** The list's sorts by what a combo costs and makes. */
const COST_SORTS = ['total_cost', 'profit', 'margin'] as const;

export const hiddenComboSorts = (actor: Actor): readonly string[] => (can(actor, 'costs.view') ? [] : COST_SORTS);

/** A combo (with its items, where it has them) without what the actor may not see of its costs. */
export function presentCombo<C extends Partial<Pick<ComboDetail, (typeof COMBO_COST_FIELDS)[number]>>>(
  actor: Actor,
  combo: C & { items?: ComboItem[] },
): C & { items?: ComboItem[] } {
  const shown = hideCosts(actor, combo, COMBO_COST_FIELDS as unknown as (keyof C)[]);
  return shown.items ? { ...shown, items: shown.items.map((item) => hideCosts(actor, item, ['cost_cents'])) } : shown;
}
