import { type Locale, SCREENS, type Screen } from '@depot/contracts';
import type { ComponentType } from 'react';
import { createBrowserRouter, createMemoryRouter, type RouteObject } from 'react-router';
import { Splash } from '../components/Splash.tsx';
import { i18n } from '../i18n.ts';
import type { ResourceDef, Row } from '../kit/resource.ts';
import { DefaultLayout } from '../layouts/DefaultLayout.tsx';
import { landingPath } from '../lib/access.tsx';
import { setRequestLocale } from '../lib/http.ts';
import { htmlLang, localeFromPath, localePath } from '../lib/locale.ts';
import { session } from '../lib/session.ts';
import { guard } from './guard.ts';
import { Root } from './Root.tsx';
import { RouteError } from './RouteError.tsx';
import type { RouteHandle } from './routeHandle.ts';

type Lazy = () => Promise<{ Component: ComponentType }>;

const notFound: Lazy = () => import('../pages/NotFoundPage.tsx').then((m) => ({ Component: m.NotFoundPage }));

type Defs = () => Promise<Record<string, ResourceDef<Row>>>;
const catalogue: Defs = () => import('../resources/catalogue.tsx') as never;
const productDefs: Defs = () => import('../resources/products.tsx') as never;
const parties: Defs = () => import('../resources/parties.tsx') as never;
const gazetteer: Defs = () => import('../resources/gazetteer.tsx') as never;
const discountDefs: Defs = () => import('../resources/discounts.tsx') as never;
const comboDefs: Defs = () => import('../resources/combos.tsx') as never;
const priceDefs: Defs = () => import('../resources/prices.tsx') as never;
const userDefs: Defs = () => import('../resources/users.tsx') as never;

/** A list of the kit from a definition. */
function list(defs: Defs, name: string): Lazy {
  return () =>
    Promise.all([import('../kit/ListPage.tsx'), defs()]).then(([{ ListPage }, all]) => ({
      Component: () => <ListPage def={all[name]} />,
    }));
}

/** A resource's three screens from its definition: the kit's list at `/x`, its form at the other two. */
function crud(screen: string, defs: Defs, name: string): Record<string, Page> {
  const form: Lazy = () =>
    Promise.all([import('../kit/FormPage.tsx'), defs()]).then(([{ FormPage }, all]) => ({
      Component: () => <FormPage def={all[name]} />,
    }));
  return {
    [screen]: { lazy: list(defs, name) },
    [`${screen}/create`]: { lazy: form },
    [`${screen}/update/:id`]: { lazy: form },
  };
}

const comboForm: Lazy = () => import('../pages/combos/ComboFormPage.tsx').then((m) => ({ Component: m.ComboFormPage }));

const purchaseForm: Lazy = () =>
  import('../pages/purchases/PurchaseFormPage.tsx').then((m) => ({ Component: m.PurchaseFormPage }));

/** What each screen of SCREENS shows. A new screen is one line here (a test checks none is missing). */
const report =
  (page: 'SalesReportPage' | 'FinancialReportPage' | 'InventoryReportPage' | 'CustomerReportPage'): Lazy =>
  () =>
    import('../pages/reports/ReportPage.tsx').then((m) => ({ Component: m[page] }));

export type Page = ({ lazy: Lazy } | { Component: ComponentType } | { redirectTo: string | (() => string) }) & {
  handle?: RouteHandle;
};

export const pages: Record<string, Page> = {
  '/': { redirectTo: landingPath },
  '/app': { redirectTo: landingPath },
  '/login': { lazy: () => import('../pages/LoginPage.tsx').then((m) => ({ Component: m.LoginPage })) },
  '/dashboards': { lazy: () => import('../pages/DashboardPage.tsx').then((m) => ({ Component: m.DashboardPage })) },
  '/no-permission': {
    lazy: () => import('../pages/NoPermissionPage.tsx').then((m) => ({ Component: m.NoPermissionPage })),
  },
  '/not-found': { lazy: notFound },
  // selling: the till fills the window; its review and payment are /orders/review
  '/pos': {
    lazy: () => import('../pages/till/PosPage.tsx').then((m) => ({ Component: m.PosPage })),
    handle: { fullHeight: true },
  },
  '/orders': { lazy: () => import('../pages/orders/OrdersPage.tsx').then((m) => ({ Component: m.OrdersPage })) },
  '/orders/review': {
    lazy: () => import('../pages/orders/OrderReviewPage.tsx').then((m) => ({ Component: m.OrderReviewPage })),
  },
  '/shifts': { lazy: () => import('../pages/shifts/ShiftsPage.tsx').then((m) => ({ Component: m.ShiftsPage })) },
  '/serials': { lazy: () => import('../pages/serials/SerialsPage.tsx').then((m) => ({ Component: m.SerialsPage })) },
  '/invoices': { lazy: () => import('../pages/orders/InvoicesPage.tsx').then((m) => ({ Component: m.InvoicesPage })) },
  '/tax-documents': {
    lazy: () => import('../pages/tax/TaxDocumentsPage.tsx').then((m) => ({ Component: m.TaxDocumentsPage })),
  },
  ...crud('/discounts', discountDefs, 'discounts'),
  '/combos': { lazy: list(comboDefs, 'combos') },
  '/combos/create': { lazy: comboForm },
  '/combos/update/:id': { lazy: comboForm },
  '/combos/review': {
    lazy: () => import('../pages/combos/ComboReviewPage.tsx').then((m) => ({ Component: m.ComboReviewPage })),
  },
  '/exchange-rates': {
    lazy: () => import('../pages/rates/ExchangeRatesPage.tsx').then((m) => ({ Component: m.ExchangeRatesPage })),
  },
  ...crud('/products', productDefs, 'products'),
  '/products/expired': {
    lazy: () => import('../pages/stock/ExpiredPage.tsx').then((m) => ({ Component: m.ExpiredPage })),
  },
  '/stocks/manage': {
    lazy: () => import('../pages/stock/StockManagePage.tsx').then((m) => ({ Component: m.StockManagePage })),
  },
  '/stocks/transfer': {
    lazy: () => import('../pages/stock/TransfersPage.tsx').then((m) => ({ Component: m.TransfersPage })),
  },
  '/stocks/counts': { lazy: () => import('../pages/stock/CountsPage.tsx').then((m) => ({ Component: m.CountsPage })) },
  '/stocks/counts/:id': {
    lazy: () => import('../pages/stock/CountPage.tsx').then((m) => ({ Component: m.CountPage })),
  },
  '/stocks/low': { lazy: () => import('../pages/stock/LowStockPage.tsx').then((m) => ({ Component: m.LowStockPage })) },
  '/purchases': {
    lazy: () => import('../pages/purchases/PurchasesPage.tsx').then((m) => ({ Component: m.PurchasesPage })),
  },
  '/purchases/create': { lazy: purchaseForm },
  '/purchases/update/:id': { lazy: purchaseForm },
  '/purchases/review': {
    lazy: () => import('../pages/purchases/PurchaseReviewPage.tsx').then((m) => ({ Component: m.PurchaseReviewPage })),
  },
  '/samples': { lazy: () => import('../pages/SamplesPage.tsx').then((m) => ({ Component: m.SamplesPage })) },
  '/reports/sales': { lazy: report('SalesReportPage') },
  '/reports/financial': { lazy: report('FinancialReportPage') },
  '/reports/inventory': { lazy: report('InventoryReportPage') },
  '/reports/customer': { lazy: report('CustomerReportPage') },
  '/reports/shifts': {
    lazy: () => import('../pages/reports/ShiftsReportPage.tsx').then((m) => ({ Component: m.ShiftsReportPage })),
  },
  '/reports/credit': {
    lazy: () => import('../pages/credit/CreditReportPage.tsx').then((m) => ({ Component: m.CreditReportPage })),
  },
  '/notifications': {
    lazy: () =>
      import('../pages/notifications/NotificationsPage.tsx').then((m) => ({ Component: m.NotificationsPage })),
  },
  '/profiles': { lazy: () => import('../pages/profile/ProfilePage.tsx').then((m) => ({ Component: m.ProfilePage })) },
  '/settings': {
    lazy: () => import('../pages/settings/SettingsPage.tsx').then((m) => ({ Component: m.SettingsPage })),
  },
  '/settings/caminvoice': {
    lazy: () => import('../pages/einvoice/CamInvoicePage.tsx').then((m) => ({ Component: m.CamInvoicePage })),
  },
  '/einvoices/received': {
    lazy: () =>
      import('../pages/einvoice/ReceivedEInvoicesPage.tsx').then((m) => ({ Component: m.ReceivedEInvoicesPage })),
  },
  ...crud('/brands', catalogue, 'brands'),
  ...crud('/categories', catalogue, 'categories'),
  ...crud('/subCategories', catalogue, 'subCategories'),
  ...crud('/units', catalogue, 'units'),
  ...crud('/customers', parties, 'customers'),
  ...crud('/customer-groups', priceDefs, 'customerGroups'),
  ...crud('/price-lists', priceDefs, 'priceLists'),
  ...crud('/suppliers', parties, 'suppliers'),
  ...crud('/stores', parties, 'stores'),
  ...crud('/provinces', gazetteer, 'provinces'),
  ...crud('/districts', gazetteer, 'districts'),
  ...crud('/communes', gazetteer, 'communes'),
  ...crud('/villages', gazetteer, 'villages'),
  ...crud('/users', userDefs, 'users'),
  '/users/coverage/:id': {
    lazy: () => import('../pages/admin/CoveragePage.tsx').then((m) => ({ Component: m.CoveragePage })),
  },
  '/roles': { lazy: () => import('../pages/admin/RolesPage.tsx').then((m) => ({ Component: m.RolesPage })) },
  '/audit': { lazy: () => import('../pages/admin/AuditPage.tsx').then((m) => ({ Component: m.AuditPage })) },
  '/display': { lazy: () => import('../pages/display/DisplayPage.tsx').then((m) => ({ Component: m.DisplayPage })) },
  '/password': { lazy: () => import('../pages/profile/PasswordPage.tsx').then((m) => ({ Component: m.PasswordPage })) },
};

const dashboardLayout = () => import('../layouts/DashboardLayout.tsx').then((m) => ({ Component: m.DashboardLayout }));

const layouts: Record<Screen['layout'], Pick<RouteObject, 'Component' | 'lazy'>> = {
  // the sign-in page draws its whole page itself (signin/SignInPage.tsx)
  guest: {},
  // Only signed-in users pay for the menu and header.
  dashboard: { lazy: dashboardLayout },
  default: { Component: DefaultLayout },
  // a page alone (the customer display): no menu, no session
  bare: {},
};

/**
 * Fetches the code of the menu's layout and of these screens ahead of their opening (after sign-in,
 * while the first screen draws): the router then finds them loaded. A failure is left to the router.
 */
export function preloadScreens(paths: readonly string[]): void {
  const loads: Promise<unknown>[] = [dashboardLayout()];
  for (const path of paths) {
    const page = pages[path];
    if (page && 'lazy' in page) loads.push(page.lazy());
  }
  for (const load of loads) load.catch(() => undefined);
}

/** `/dashboards` and `/en/dashboards` are one route, so a language switch keeps the page's state. */
function routePath(path: string): string {
  return path === '/' ? '/en?' : `/en?${path}`;
}

function screenRoute(screen: Screen): RouteObject {
  const page = pages[screen.path];
  const base: RouteObject = { path: routePath(screen.path), handle: page?.handle };
  if (!page) return { ...base, lazy: notFound };
  if ('redirectTo' in page) return { ...base, loader: guard(screen, page.redirectTo), element: null };
  const loader = guard(screen);
  return 'lazy' in page ? { ...base, loader, lazy: page.lazy } : { ...base, loader, Component: page.Component };
}

/** A failing screen shows its error inside its layout, so the menu stays usable. */
function inLayout(children: RouteObject[]): RouteObject[] {
  return [{ errorElement: <RouteError />, children }];
}

export function buildRoutes(): RouteObject[] {
  const group = (layout: Screen['layout']): RouteObject[] =>
    SCREENS.filter((screen) => screen.layout === layout && !('redirectTo' in (pages[screen.path] ?? {}))).map(
      screenRoute,
    );
  const redirects = SCREENS.filter((screen) => 'redirectTo' in (pages[screen.path] ?? {})).map(screenRoute);

  return [
    {
      id: 'root',
      Component: Root,
      errorElement: <RouteError fullPage />,
      hydrateFallbackElement: <Splash />,
      children: [
        {
          errorElement: <RouteError fullPage />,
          children: [
            ...redirects,
            { ...layouts.guest, children: inLayout(group('guest')) },
            { ...layouts.bare, children: inLayout(group('bare')) },
            { ...layouts.dashboard, children: inLayout(group('dashboard')) },
            { ...layouts.default, children: inLayout([...group('default'), { path: '*', lazy: notFound }]) },
          ],
        },
      ],
    },
  ];
}

/** The path decides the language: every request and message follows it (dates follow i18n: lib/dates.ts). */
export function applyLocale(locale: Locale): void {
  setRequestLocale(locale);
  document.documentElement.lang = htmlLang(locale);
  if (i18n.language !== locale) {
    i18n.changeLanguage(locale).catch((error: unknown) => console.error('Failed locale loading', error));
  }
}

/** The browser router for the app; tests pass `initialEntries` for a memory router with the same routes. */
export function createAppRouter(initialEntries?: string[]) {
  const routes = buildRoutes();
  const router = initialEntries ? createMemoryRouter(routes, { initialEntries }) : createBrowserRouter(routes);
  applyLocale(localeFromPath(router.state.location.pathname));
  router.subscribe((state) => applyLocale(localeFromPath(state.location.pathname)));
  // A 401 or a refused refresh: the guard at `/` then clears what is left and shows /login.
  session.onEnded(() => {
    void router.navigate(localePath('/', localeFromPath(router.state.location.pathname)));
  });
  return router;
}

export type AppRouter = ReturnType<typeof createAppRouter>;
