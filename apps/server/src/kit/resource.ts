/**
 * The resource kit: a definition (definition.ts) gives a resource its service (service.ts: reads in
 * list.ts, writes in writes.ts, the till's changes in changes.ts) and its routes (routes.ts).
 */
export * from './definition.ts';
export { listFilters, pageAnswer, registerResource } from './routes.ts';
export { resourceService } from './service.ts';
