import { z } from 'zod';

// In a browser, zod parses without compiling code: the app's Content-Security-Policy runs no eval,
// and zod probes `Function('')` as soon as an object schema is made (the browser reports the probe
// as a violation). The server keeps zod's compiled parsers. Imported first by index.ts, and by the
// web's entries (signin/main.tsx, app/start.tsx): their bundle may run a schema's module before index.ts.
if ('document' in globalThis) z.config({ jitless: true });
