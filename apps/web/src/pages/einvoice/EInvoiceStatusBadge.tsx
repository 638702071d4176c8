import { einvoiceDocumentStatus, single } from '@depot/contracts';
import { useQuery } from '@tanstack/react-query';
import { Tag, Tooltip, Typography } from 'antd';
import { resourceKey } from '../../kit/queries.ts';
import { useCtx } from '../../kit/useCtx.ts';
import { ApiError, api } from '../../lib/http.ts';
import { STATUS_COLOURS } from './common.ts';

/**
 * A tax document's CamInvoice status, for wherever documents are listed: a tag (draft,
 * submitting, valid, delivered, accepted, rejected), the refusal's reason on hover, and the
 * verification link once cleared. Nothing while the document is not queued for CamInvoice.
 */
export function EInvoiceStatusBadge({ kind, id }: { kind: 'invoice' | 'credit_note' | 'debit_note'; id: number }) {
  const { t } = useCtx();
  const status = useQuery({
    queryKey: resourceKey('einvoices', kind, id),
    queryFn: async ({ signal }) => {
      try {
        return (await api(`einvoices/${kind}/${id}`, { signal, schema: single(einvoiceDocumentStatus) })).data;
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    refetchInterval: (query) => (['draft', 'submitting'].includes(query.state.data?.status ?? '') ? 10_000 : false),
  });
  const data = status.data;
  if (!data) return null;
  const tag = (
    <Tag color={STATUS_COLOURS[data.status]} data-testid={`einvoice-status-${kind}-${id}`}>
      CamInvoice: {t(`einvoice.status.${data.status}`)}
    </Tag>
  );
  return (
    <span>
      {data.reason ? <Tooltip title={data.reason}>{tag}</Tooltip> : tag}
      {data.verification_link && (
        <Typography.Link href={data.verification_link} target="_blank" rel="noreferrer">
          {t('einvoice.verify')}
        </Typography.Link>
      )}
    </span>
  );
}
