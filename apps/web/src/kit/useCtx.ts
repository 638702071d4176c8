import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { localeFromPath } from '../lib/locale.ts';
import type { Ctx } from './resource.ts';

/** The page's language (from its path) and the translator, as definitions receive them. */
export function useCtx(): Ctx {
  const { t } = useTranslation();
  const locale = localeFromPath(useLocation().pathname);
  return useMemo(() => ({ t, locale }), [t, locale]);
}
