import {
  idParams,
  shiftCloseInput,
  shiftDetail,
  shiftMoveInput,
  shiftOpenInput,
  shiftSettings,
  shiftSettingsInput,
  single,
  written,
} from '@depot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../access/access.ts';
import type { Db } from '../../db/database.ts';
import { say } from '../../http/locale.ts';
import type { ApprovalService } from '../../policies/approval.ts';
import { auditWho } from '../audit/audit.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { shiftReportPdf } from './shifts.pdf.ts';
import { shiftService } from './shifts.service.ts';
import { readShiftSettings, writeShiftSettings } from './shifts.settings.ts';

/**
 * Cash drawer shifts. The list is the kit's (`GET /api/shifts`, shifts.list, scoped by the policy);
 * here: the actor's open shift, a shift's detail (its X report while open, its Z report once
 * closed), open (shifts.create), pay-in / pay-out and close (shifts.update; the policy says whose
 * and when; a close whose difference is beyond the threshold takes a manager's approval in the
 * body). Writes are idempotent with `Idempotency-Key`. The shift settings live beside the sale
 * settings (settings.view / settings.update; the till reads them with shifts.list). The X / Z
 * report as an A4 PDF in the reader's language: whoever may read the shift (the same rules).
 */
export const shiftRoutes: FastifyPluginAsyncZod<{
  db: Db;
  approvals: ApprovalService;
  settings: SettingsService;
}> = async (app, { db, approvals, settings }) => {
  const service = shiftService(db);
  const tags = ['shifts'];
  const answer = written(shiftDetail);

  app.get(
    '/api/shifts/current',
    { config: { access: 'shifts.list' }, schema: { tags, response: { 200: single(shiftDetail.nullable()) } } },
    async (request) => ({ data: await service.current(authOf(request)) }),
  );

  app.get(
    '/api/shifts/settings',
    { config: { access: 'shifts.list' }, schema: { tags, response: { 200: single(shiftSettings) } } },
    async () => ({ data: await readShiftSettings(db) }),
  );

  app.put(
    '/api/shifts/settings',
    {
      config: { access: 'settings.update' },
      schema: { tags, body: shiftSettingsInput, response: { 200: written(shiftSettings) } },
    },
    async (request) => ({
      message: await say(request, 'settings.shift_saved'),
      data: await writeShiftSettings(db, request.body, auditWho(authOf(request))),
    }),
  );

  app.get(
    '/api/shifts/:id',
    { config: { access: 'shifts.view' }, schema: { tags, params: idParams, response: { 200: single(shiftDetail) } } },
    async (request) => ({ data: await service.show(authOf(request), request.params.id) }),
  );

  app.get(
    '/api/shifts/:id/report/pdf',
    {
      config: { access: 'shifts.view' },
      schema: {
        tags,
        summary: 'The X report (open) or Z report (closed) as an A4 PDF in the reader’s language',
        params: idParams,
      },
    },
    async (request, reply) => {
      const shift = await service.show(authOf(request), request.params.id);
      const pdf = await shiftReportPdf(
        shift,
        await settings.publicSettings(),
        request.locale,
        new Date().toISOString(),
      );
      const kind = shift.status === 'closed' ? 'z' : 'x';
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${kind}-report-${shift.number}.pdf"`)
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );

  app.post(
    '/api/shifts',
    {
      config: { access: 'shifts.create', idempotent: true },
      schema: { tags, body: shiftOpenInput, response: { 201: answer } },
    },
    async (request, reply) => {
      const data = await service.open(authOf(request), request.body);
      return reply.code(201).send({ message: await say(request, 'shift.opened'), data });
    },
  );

  app.post(
    '/api/shifts/:id/movements',
    {
      config: { access: 'shifts.update', idempotent: true },
      schema: { tags, params: idParams, body: shiftMoveInput, response: { 200: answer } },
    },
    async (request) => {
      const approver = await approvals.identify(request.body.approval, request.ip);
      return {
        message: await say(request, request.body.kind === 'pay_in' ? 'shift.pay_in' : 'shift.pay_out'),
        data: await service.move(authOf(request), request.params.id, request.body, approver),
      };
    },
  );

  app.post(
    '/api/shifts/:id/close',
    {
      config: { access: 'shifts.update', idempotent: true },
      schema: { tags, params: idParams, body: shiftCloseInput, response: { 200: answer } },
    },
    async (request) => {
      const approver = await approvals.identify(request.body.approval, request.ip);
      return {
        message: await say(request, 'shift.closed'),
        data: await service.close(authOf(request), request.params.id, request.body, approver),
      };
    },
  );
};
