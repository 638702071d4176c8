import { startApp } from './app/start.tsx';

await startApp(document.getElementById('root') as HTMLElement);
