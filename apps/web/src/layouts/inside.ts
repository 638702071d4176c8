import { createContext } from 'react';

/** True under the signed-in layout, whose header holds the page's h1 (StatusPage's title is then an h2). */
export const InsideDashboard = createContext(false);
