import { Alert, App, Button, Card, Col, Flex, Form, Row as GridRow, Result, Skeleton } from 'antd';
import { cloneElement, isValidElement, type ReactElement, useEffect, useMemo } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { Can } from '../lib/access.tsx';
import { useFormCheck, zodRule } from '../lib/forms.ts';
import { ApiError } from '../lib/http.ts';
import { localePath } from '../lib/locale.ts';
import { BackTitle } from './PageTitle.tsx';
import { failureMessage, useRecord, useWrite } from './queries.ts';
import type { Field, ResourceDef, Row } from './resource.ts';
import { useCtx } from './useCtx.ts';

type Values = Record<string, unknown>;

/** The form's starting values: the record's writable fields, or the defaults for a new one. */
function initialValues<R extends Row>(def: ResourceDef<R>, fields: Field[], record: R | undefined): Values {
  const source = (record ?? def.defaults ?? {}) as Values;
  const values: Values = Object.fromEntries(
    Object.keys(def.input.shape).map((key) => [key, source[key] ?? (record ? null : undefined)]),
  );
  for (const field of fields) {
    if (field.from) values[field.name] = source[field.from] ?? (record ? null : undefined);
  }
  return values;
}

function RecordForm<R extends Row>({ def, record }: { def: ResourceDef<R>; record?: R }) {
  const ctx = useCtx();
  const { t, locale } = ctx;
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { state } = useLocation();
  const [form] = Form.useForm<Values>();
  const { save, refresh } = useWrite(def);
  const texts = def.texts(t);
  const fields = useMemo(() => def.fields(ctx), [def, ctx]);
  const names = fields.map((field) => field.name);
  const { problem, setProblem, check, fail } = useFormCheck(form, names, locale);
  const shape = def.input.shape as Record<string, Parameters<typeof zodRule>[0]>;

  // The list that opened the form, at its page, search and filters, in the page's language.
  const from = state as { back?: string; list?: string } | null;
  const back = () => navigate(localePath(from?.list ?? def.screen, locale) + (from?.back ?? ''));

  // Messages already on screen follow a language switch.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the language is the trigger, not an input
  useEffect(() => {
    const shown = form
      .getFieldsError()
      .filter((field) => field.errors.length > 0)
      .map((field) => field.name);
    if (shown.length > 0) form.validateFields(shown).catch(() => {});
  }, [form, locale]);

  const onFinish = async () => {
    // The server's schema, whole: per-field rules cannot see rules across fields (a unit's factor).
    const body = check(def.input);
    if (body === null) return;
    // a record is the server's to make or change (a customer with credit, a product): none offline
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      setProblem(t('offline.needsConnection'));
      return;
    }
    let saved: R | undefined;
    try {
      const answer = await save.mutateAsync(
        record ? { action: 'update', id: record.id, body } : { action: 'create', body },
      );
      saved = answer.data;
      void message.success(answer.message);
      if (def.afterSave) {
        await def.afterSave(saved, form.getFieldsValue(true), record).finally(refresh);
      }
      await back();
    } catch (error) {
      if (saved && !record) {
        // The record exists now: its own form, so saving again updates it rather than making a second one.
        void message.error(failureMessage(error, locale));
        await navigate(localePath(`${def.formScreen ?? def.screen}/update/${saved.id}`, locale), {
          replace: true,
          state,
        });
        return;
      }
      fail(error);
    }
  };

  return (
    <Card title={<BackTitle onBack={back}>{record ? texts.edit : texts.create}</BackTitle>}>
      <Form<Values>
        form={form}
        name="record"
        data-testid="record-form"
        layout="vertical"
        initialValues={initialValues(def, fields, record)}
        onFinish={onFinish}
        onValuesChange={() => setProblem(null)}
        disabled={save.isPending || Boolean(record?.deleted_at)}
        style={{ maxWidth: 720 }}
      >
        {record?.deleted_at && (
          <Alert type="warning" showIcon title={t('kit.deletedRecord')} style={{ marginBottom: 24 }} />
        )}
        {problem && (
          <Alert data-testid="form-error" type="error" showIcon title={problem} style={{ marginBottom: 24 }} />
        )}
        <GridRow gutter={16}>
          {fields.map((field) => {
            const item = (
              <Form.Item
                name={field.name}
                label={field.label}
                extra={field.help}
                valuePropName={field.valuePropName}
                rules={shape[field.name] ? [zodRule(shape[field.name], locale)] : undefined}
                // the mark only: a field is required when its schema refuses it left empty
                required={Boolean(shape[field.name]) && !shape[field.name].safeParse(undefined).success}
              >
                {field.readOnly?.(record) && isValidElement(field.control)
                  ? cloneElement(field.control as ReactElement<{ disabled?: boolean }>, { disabled: true })
                  : field.control}
              </Form.Item>
            );
            const { when } = field;
            if (!when) {
              return (
                <Col key={field.name} xs={24} md={field.half ? 12 : 24}>
                  {item}
                </Col>
              );
            }
            // Follows the values it depends on: a discount's scope shows the product or the category.
            return (
              <Form.Item key={field.name} noStyle shouldUpdate>
                {() =>
                  when(form.getFieldsValue(true)) ? (
                    <Col xs={24} md={field.half ? 12 : 24}>
                      {item}
                    </Col>
                  ) : null
                }
              </Form.Item>
            );
          })}
        </GridRow>
        <Flex gap={12}>
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="save">
            {t('kit.save')}
          </Button>
          <Button onClick={() => void back()} disabled={false}>
            {t('kit.cancel')}
          </Button>
        </Flex>
      </Form>
    </Card>
  );
}

/** `/x/create` and `/x/update/:id`: the same form, the second one filled from the record. */
export function FormPage<R extends Row>({ def }: { def: ResourceDef<R> }) {
  const { t, locale } = useCtx();
  const { id } = useParams();
  const recordId = id ? Number(id) : null;
  const record = useRecord(def, recordId);

  if (!recordId) return <RecordForm def={def} />;
  if (record.isPending) {
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  }
  if (record.isError) {
    const missing = record.error instanceof ApiError && record.error.status === 404;
    return (
      <Result
        status={missing ? '404' : 'error'}
        title={missing ? t('kit.notFound') : t('errors.loadData')}
        subTitle={missing ? undefined : failureMessage(record.error, locale)}
        extra={
          !missing && (
            <Button type="primary" onClick={() => void record.refetch()}>
              {t('common.retry')}
            </Button>
          )
        }
      />
    );
  }
  // Keyed by record, so a refetched record starts the form afresh rather than mixing values.
  return (
    <>
      <RecordForm key={record.data.id} def={def} record={record.data} />
      {def.below && !record.data.deleted_at && (
        <Can permission={def.belowPermission ?? ''}>{def.below(record.data)}</Can>
      )}
    </>
  );
}
