import { type Invoice, type OrderDetail, orderDetail, single } from '@depot/contracts';
import { App } from 'antd';
import { useMemo, useState } from 'react';
import { ListPage } from '../../kit/ListPage.tsx';
import { failureMessage } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { useCan } from '../../lib/access.tsx';
import { api } from '../../lib/http.ts';
import { invoicesDef } from '../../resources/orders.tsx';
import { InvoiceDialog } from './receipts.tsx';

/** `/invoices`: the kit's list of invoices; each prints as the A4 tax invoice of its order. */
export function InvoicesPage() {
  const { locale } = useCtx();
  const { message } = App.useApp();
  const canViewOrder = useCan('orders.view');
  const canListOrders = useCan('orders.list');
  const [open, setOpen] = useState<OrderDetail | null>(null);

  const def = useMemo(
    () =>
      invoicesDef({
        canViewOrder,
        canListOrders,
        // The invoice's lines, VAT and rate are its order's.
        printInvoice: (row: Invoice) => {
          api(`orders/${row.order_id}`, { schema: single(orderDetail) }).then(
            (answer) => setOpen(answer.data),
            (error: unknown) => void message.error(failureMessage(error, locale)),
          );
        },
      }),
    [canViewOrder, canListOrders, message, locale],
  );

  return (
    <>
      <ListPage def={def} />
      {open && <InvoiceDialog order={open} onClose={() => setOpen(null)} />}
    </>
  );
}
