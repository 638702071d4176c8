import { AppstoreOutlined, GiftOutlined, PictureOutlined, SearchOutlined } from '@ant-design/icons';
import {
  type Category,
  type Combo,
  category,
  combo,
  formatKhr,
  formatUsd,
  type RielRates,
  rielOf,
  tillProduct,
} from '@depot/contracts';
import { App, Button, Card, Empty, Flex, Input, type InputRef, Skeleton, Tag, Typography } from 'antd';
import { memo, type Ref, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { LoadFailed } from '../../kit/listState.tsx';
import { usePage } from '../../kit/queries.ts';
import { type Ctx, localName } from '../../kit/resource.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useDebounced } from '../../kit/useDebounced.ts';
import { useCan } from '../../lib/access.tsx';
import { quantityText } from '../../lib/format.ts';
import { rememberStock, useLocalCatalogue } from '../../lib/offline/localCatalogue.ts';
import { useLocalLists } from '../../lib/offline/localLists.ts';
import { productLine, type SoldProduct, type TillLine } from './cart.ts';
import { comboQuery, localProduct, productQuery, TILL_PRODUCTS, useCatalogue } from './catalogue.ts';
import { Key } from './keys.tsx';

/** "Combos" among the category chips: the grid shows bundles instead of products. */
const COMBOS = 'combos';

function Thumb({ url, combo: isCombo }: { url: string | null; combo?: boolean }) {
  if (url) return <img src={url} alt="" className="pos-thumb" loading="lazy" />;
  return (
    <div className="pos-thumb pos-thumb-empty" aria-hidden>
      {isCombo ? <GiftOutlined /> : <PictureOutlined />}
    </div>
  );
}

function Tile({
  names,
  sku,
  usd,
  khr,
  thumb,
  onClick,
  testId,
  isCombo,
  stock,
}: {
  names: [string, string];
  sku: string;
  usd: number;
  /** One's riel figure, once the rates are known. */
  khr: number | null;
  thumb: string | null;
  onClick: () => void;
  testId: string;
  isCombo?: boolean;
  /** The store's stock of a product, in words ("24 Can in stock"), and whether there is none. */
  stock?: { text: string; out: boolean } | null;
}) {
  return (
    <button
      type="button"
      className={stock?.out ? 'pos-tile pos-tile-out' : 'pos-tile'}
      onClick={onClick}
      data-testid={testId}
    >
      <Thumb url={thumb} combo={isCombo} />
      <span className="pos-tile-name">{names[0] || names[1]}</span>
      {names[0] && names[1] && <span className="pos-tile-second">{names[1]}</span>}
      <span className="pos-tile-sku">
        {isCombo && (
          <Tag color="purple" style={{ marginInlineEnd: 4 }}>
            <GiftOutlined />
          </Tag>
        )}
        {sku}
      </span>
      {/* a plain mark, drawn as antd's error tag (styles.css): an antd Tag per tile was a good part of a keystroke's redraw */}
      {stock && (
        <span
          className={stock.out ? 'pos-tile-stock pos-tile-stock-out' : 'pos-tile-stock'}
          data-testid={`${testId}-stock`}
        >
          {stock.text}
        </span>
      )}
      <span className="pos-tile-price">
        <strong>{formatUsd(usd)}</strong>
        {khr !== null && <span data-testid={`${testId}-khr`}>{formatKhr(khr)}</span>}
      </span>
    </button>
  );
}

/** What a product's tile shows: a tile is drawn again only when one of these changed (the grid redraws at each key). */
const SHOWN = [
  'id',
  'name_en',
  'name_kh',
  'sku',
  'price_usd_cents',
  'stock',
  'thumbnail_url',
  'unit_name_en',
  'unit_name_kh',
  'unit_decimals',
] as const;

/**
 * A product's tile; memoized, so a keystroke or a cart line redraws only the tiles that changed. The
 * pane's language and translator are passed in: a tile of its own hooks (the router's location, i18n)
 * cost each of the fifty tiles a keystroke draws.
 */
const ProductTile = memo(
  function ProductTile({
    row,
    rates,
    onAdd,
    ctx: { t, locale },
  }: {
    row: SoldProduct;
    rates: RielRates | null;
    onAdd: (row: SoldProduct) => void;
    ctx: Ctx;
  }) {
    // in the product's own unit: what a line of it takes (a carton takes its factor of them)
    const stock =
      row.stock === undefined
        ? null
        : row.stock > 0
          ? { text: t('pos.inStock', { quantity: quantityText(row.stock, row, locale) }), out: false }
          : { text: t('pos.outOfStock'), out: true };
    return (
      <Tile
        testId={`tile-${row.id}`}
        names={locale === 'kh' ? [row.name_kh, row.name_en] : [row.name_en, row.name_kh]}
        sku={row.sku}
        usd={row.price_usd_cents}
        khr={rates ? rielOf(row.price_usd_cents, rates) : null}
        stock={stock}
        thumb={row.thumbnail_url}
        onClick={() => onAdd(row)}
      />
    );
  },
  (a, b) =>
    a.rates === b.rates && a.onAdd === b.onAdd && a.ctx === b.ctx && SHOWN.every((key) => a.row[key] === b.row[key]),
);

/**
 * The left pane of the till: the search (name, SKU or barcode, answered as the cashier types; Enter
 * adds an exact code), category chips, and the grid of products or combos to tap.
 */
export function ProductPane({
  onAdd,
  searchRef,
  rates,
  storeId,
}: {
  onAdd: (line: TillLine) => void;
  searchRef: Ref<InputRef>;
  /** The till's rates: a tile's riel is what the cart's total would say for one (money.ts). */
  rates: RielRates | null;
  /** The till's store, whose stock the tiles show; null for none, undefined while not yet known. */
  storeId: number | null | undefined;
}) {
  const ctx = useCtx();
  const { t, locale } = ctx;
  const { message } = App.useApp();
  const catalogue = useCatalogue(storeId ?? null);
  // one function for every tile, whatever the till passed this time: the tiles stay memoized
  const adding = useRef(onAdd);
  adding.current = onAdd;
  const addProduct = useCallback((row: SoldProduct) => adding.current(productLine(row)), []);
  const [text, setText] = useState('');
  const [chip, setChip] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // the local catalogue once synced: searched at each key, no round trip (localCatalogue.ts)
  const local = useLocalCatalogue();
  // Before it, the server answers each key (the request of the key before is aborted: TanStack
  // Query aborts the signal of a query nobody reads any more); after, it only tells the stock of
  // what is typed, once the typing pauses.
  const paused = useDebounced(text.trim(), 250);
  const search = local ? paused : text.trim();
  const canCombos = useCan('combos.list');
  const showCombos = chip === COMBOS;
  const categoryId = chip && chip !== COMBOS ? Number(chip) : null;

  const categories = usePage(
    'categories',
    category,
    new URLSearchParams({
      per_page: '100',
      'filter[status]': 'active',
      sort: locale === 'kh' ? 'name_kh' : 'name_en',
    }).toString(),
  );
  // asked once the store is known: a first answer without stock would only be thrown away
  const products = usePage(
    TILL_PRODUCTS,
    tillProduct,
    productQuery(search, categoryId, 50, storeId),
    !showCombos && storeId !== undefined,
  );
  // online, the server's answer carries the store's stock: kept as the last known for offline
  useEffect(() => {
    const rows = products.data?.data;
    if (storeId && rows) void rememberStock(storeId, rows).catch(() => undefined);
  }, [products.data, storeId]);
  const typed = text.trim();
  const localRows = useMemo(() => {
    if (!local || showCombos) return null;
    const server = new Map((products.data?.data ?? []).map((row) => [row.id, row]));
    return local.search(typed, 50, categoryId ? (row) => row.category_id === categoryId : undefined).map((row) => {
      const shown = localProduct(row, storeId ?? null);
      // the stock the server just told, where it told it
      const fresh = server.get(row.id)?.stock;
      return fresh === undefined ? shown : { ...shown, stock: fresh };
    });
  }, [local, showCombos, typed, categoryId, storeId, products.data]);
  // Searching shows the combos that match beside the products: the kept ones once they are.
  const storedCombos = useLocalLists().combos;
  const localCombos = useMemo(
    () => (storedCombos ? (showCombos || typed ? storedCombos.search(typed, 20) : []) : null),
    [storedCombos, showCombos, typed],
  );
  const combos = usePage(
    'combos',
    combo,
    comboQuery(search, 20),
    canCombos && !storedCombos && (showCombos || search.length > 0),
  );

  const addCombo = async (row: Combo) => {
    try {
      onAdd(await catalogue.comboLine(row));
    } catch {
      void message.error(t('errors.loadData'));
    }
  };

  const enter = async () => {
    const code = text.trim();
    if (!code) return;
    setBusy(true);
    try {
      const found = await catalogue.findCode(code, { allowOnly: true });
      if ('line' in found) {
        onAdd(found.line);
        setText('');
      } else if ('none' in found) void message.warning(t('lines.noProduct', { code }));
      else void message.info(t('lines.chooseOne'));
    } catch {
      void message.error(t('errors.loadData'));
    } finally {
      setBusy(false);
    }
  };

  const khrOf = (cents: number) => (rates ? rielOf(cents, rates) : null);
  const productRows: SoldProduct[] = showCombos ? [] : (localRows ?? products.data?.data ?? []);
  const comboRows: Combo[] = localCombos ?? combos.data?.data ?? [];
  const shownLocal = showCombos ? localCombos : localRows;
  const loading =
    !shownLocal && (showCombos ? combos.isPending : products.isPending) && !(showCombos ? combos.data : products.data);
  // with the local catalogue, the server's products only add their stock: their failure is not the grid's
  const failed = showCombos ? combos : products;
  const failedShown = failed.isError && !failed.data && !shownLocal;

  return (
    <Card
      className="pos-pane"
      styles={{ body: { display: 'flex', flexDirection: 'column', gap: 12, flex: 1, minHeight: 0, padding: 12 } }}
      data-testid="pos-products"
      data-catalogue={local ? 'local' : 'server'}
    >
      <Input
        ref={searchRef}
        size="large"
        allowClear
        data-testid="pos-search"
        prefix={<SearchOutlined />}
        suffix={busy ? <Typography.Text type="secondary">…</Typography.Text> : <Key>F2</Key>}
        placeholder={t('pos.searchHint')}
        aria-label={t('pos.searchHint')}
        autoComplete="off"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Enter') return;
          event.preventDefault();
          void enter();
        }}
      />
      <Flex gap={8} className="pos-chips" role="toolbar" aria-label={t('pos.categories')}>
        <Button
          shape="round"
          type={chip === null ? 'primary' : 'default'}
          icon={<AppstoreOutlined />}
          onClick={() => setChip(null)}
          data-testid="chip-all"
        >
          {t('pos.allProducts')}
        </Button>
        {canCombos && (
          <Button
            shape="round"
            type={showCombos ? 'primary' : 'default'}
            icon={<GiftOutlined />}
            onClick={() => setChip(COMBOS)}
            data-testid="chip-combos"
          >
            {t('menu.combos')}
          </Button>
        )}
        {(categories.data?.data ?? []).map((row: Category) => (
          <Button
            key={row.id}
            shape="round"
            type={chip === String(row.id) ? 'primary' : 'default'}
            onClick={() => setChip(String(row.id))}
            data-testid={`chip-${row.id}`}
          >
            {localName(row, locale)}
          </Button>
        ))}
      </Flex>
      <div className="pos-grid-scroll">
        {failedShown ? (
          <LoadFailed error={failed.error} retry={failed.refetch} retrying={failed.isFetching} />
        ) : loading ? (
          <Skeleton active paragraph={{ rows: 6 }} />
        ) : productRows.length === 0 && comboRows.length === 0 ? (
          <Empty
            description={
              (localRows ? typed : search)
                ? t('pos.nothingFound', { search: localRows ? typed : search })
                : t('kit.empty')
            }
          />
        ) : (
          <div className="pos-grid" data-testid="pos-grid">
            {productRows.map((row) => (
              <ProductTile key={`p-${row.id}`} row={row} rates={rates} onAdd={addProduct} ctx={ctx} />
            ))}
            {(showCombos || (search.length > 0 && (!localRows || search === typed))) &&
              comboRows.map((row) => (
                <Tile
                  key={`c-${row.id}`}
                  testId={`combo-tile-${row.id}`}
                  isCombo
                  names={locale === 'kh' ? [row.name_kh, row.name_en] : [row.name_en, row.name_kh]}
                  sku={row.sku}
                  usd={row.selling_price_cents}
                  khr={khrOf(row.selling_price_cents)}
                  thumb={null}
                  onClick={() => void addCombo(row)}
                />
              ))}
          </div>
        )}
      </div>
    </Card>
  );
}
