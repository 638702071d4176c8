import type { DrawerPin, PaperWidth } from '@depot/contracts';
import type { LocalKind } from './devices.ts';

/**
 * Where a document prints, chosen per computer (a till and its printer stay together): the
 * browser's own print dialog, a store's network printer (through the server), or a printer on
 * this computer (Web Serial / WebUSB) with its paper and its cash drawer.
 */
export type PrintTarget = { kind: 'browser' } | { kind: 'network'; printerId: number } | { kind: 'local' };

export interface LocalPrinter {
  kind: LocalKind;
  /** The device's USB vendor:product ids, as the browser knows it. */
  device: string;
  paper: PaperWidth;
  drawer: boolean;
  pin: DrawerPin;
  baudRate: number;
}

const TARGET_KEY = 'depot.print_target';
const LOCAL_KEY = 'depot.local_printer';

function read<T>(key: string): T | null {
  try {
    const text = localStorage.getItem(key);
    return text ? (JSON.parse(text) as T) : null;
  } catch {
    return null;
  }
}

function write(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // private mode: the choice lasts this page
  }
}

export const storedTarget = (): PrintTarget => read<PrintTarget>(TARGET_KEY) ?? { kind: 'browser' };
export const storeTarget = (target: PrintTarget) => write(TARGET_KEY, target);
export const storedLocalPrinter = () => read<LocalPrinter>(LOCAL_KEY);
export const storeLocalPrinter = (printer: LocalPrinter) => write(LOCAL_KEY, printer);

export const targetValue = (target: PrintTarget) =>
  target.kind === 'network' ? `network:${target.printerId}` : target.kind;
export function targetFrom(value: string): PrintTarget {
  if (value.startsWith('network:')) return { kind: 'network', printerId: Number(value.slice(8)) };
  return value === 'local' ? { kind: 'local' } : { kind: 'browser' };
}

/** The two pins a cash drawer is wired to, as a choice. */
export const DRAWER_PIN_OPTIONS = [
  { value: 2, label: '2' },
  { value: 5, label: '5' },
];
