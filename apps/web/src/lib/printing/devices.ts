/**
 * A receipt printer attached to the till's own computer, reached from the page: Web Serial (a USB
 * printer that shows as a serial port, or a real serial port) or WebUSB (a USB printer class
 * device). Chromium only (Chrome, Edge), on https or localhost; the cashier picks the device once
 * (the browser asks), and the browser remembers the permission for this site on this computer.
 */

export type LocalKind = 'serial' | 'usb';

interface SerialPortLike {
  open(options: { baudRate: number }): Promise<void>;
  close(): Promise<void>;
  readonly writable: WritableStream<Uint8Array> | null;
  getInfo(): { usbVendorId?: number; usbProductId?: number };
}
interface SerialLike {
  requestPort(options?: object): Promise<SerialPortLike>;
  getPorts(): Promise<SerialPortLike[]>;
}
interface UsbEndpoint {
  direction: 'in' | 'out';
  type: 'bulk' | 'interrupt' | 'isochronous';
  endpointNumber: number;
}
interface UsbDeviceLike {
  vendorId: number;
  productId: number;
  opened: boolean;
  configuration: { interfaces: { interfaceNumber: number; alternate: { endpoints: UsbEndpoint[] } }[] } | null;
  open(): Promise<void>;
  close(): Promise<void>;
  selectConfiguration(value: number): Promise<void>;
  claimInterface(n: number): Promise<void>;
  releaseInterface(n: number): Promise<void>;
  transferOut(endpoint: number, data: BufferSource): Promise<unknown>;
}
interface UsbLike {
  requestDevice(options: { filters: object[] }): Promise<UsbDeviceLike>;
  getDevices(): Promise<UsbDeviceLike[]>;
}

const nav = () => navigator as Navigator & { serial?: SerialLike; usb?: UsbLike };

/** What this browser can reach: neither in Firefox or Safari, nor on a page that is not secure. */
export function localSupport(): Record<LocalKind, boolean> {
  const secure = typeof window !== 'undefined' && window.isSecureContext !== false;
  return { serial: secure && Boolean(nav().serial), usb: secure && Boolean(nav().usb) };
}

/** No device chosen yet (or the browser forgot it): the cashier chooses again. */
export class NoDevice extends Error {}

const ids = (info: { usbVendorId?: number; usbProductId?: number } | UsbDeviceLike) =>
  'vendorId' in info ? `${info.vendorId}:${info.productId}` : `${info.usbVendorId ?? ''}:${info.usbProductId ?? ''}`;

/** The browser's device chooser (needs a click); answers the device's ids to remember. */
export async function chooseDevice(kind: LocalKind): Promise<string> {
  if (kind === 'serial') {
    const serial = nav().serial;
    if (!serial) throw new NoDevice('serial');
    return ids((await serial.requestPort()).getInfo());
  }
  const usb = nav().usb;
  if (!usb) throw new NoDevice('usb');
  // class 7: printers; many receipt printers use a vendor class, so any device may be chosen
  return ids(await usb.requestDevice({ filters: [] }));
}

async function findSerial(device: string): Promise<SerialPortLike> {
  const ports = (await nav().serial?.getPorts()) ?? [];
  const port = ports.find((p) => ids(p.getInfo()) === device) ?? (ports.length === 1 ? ports[0] : undefined);
  if (!port) throw new NoDevice('serial');
  return port;
}

async function findUsb(device: string): Promise<UsbDeviceLike> {
  const found = ((await nav().usb?.getDevices()) ?? []).find((d) => ids(d) === device);
  if (!found) throw new NoDevice('usb');
  return found;
}

/** Chunks a printer's small buffer takes at a time. */
const CHUNK = 16 * 1024;

/** Sends the job's bytes to the remembered device, and lets it go again. */
export async function sendLocal(kind: LocalKind, device: string, bytes: Uint8Array, baudRate = 9600): Promise<void> {
  if (kind === 'serial') {
    const port = await findSerial(device);
    await port.open({ baudRate });
    try {
      const writer = port.writable?.getWriter();
      if (!writer) throw new NoDevice('serial');
      try {
        for (let at = 0; at < bytes.length; at += CHUNK) await writer.write(bytes.subarray(at, at + CHUNK));
      } finally {
        writer.releaseLock();
      }
    } finally {
      await port.close();
    }
    return;
  }
  const usb = await findUsb(device);
  if (!usb.opened) await usb.open();
  if (!usb.configuration) await usb.selectConfiguration(1);
  const iface = usb.configuration?.interfaces.find((i) =>
    i.alternate.endpoints.some((e) => e.direction === 'out' && e.type === 'bulk'),
  );
  const endpoint = iface?.alternate.endpoints.find((e) => e.direction === 'out' && e.type === 'bulk');
  if (!iface || !endpoint) throw new NoDevice('usb');
  await usb.claimInterface(iface.interfaceNumber);
  try {
    for (let at = 0; at < bytes.length; at += CHUNK) {
      await usb.transferOut(endpoint.endpointNumber, bytes.slice(at, at + CHUNK));
    }
  } finally {
    await usb.releaseInterface(iface.interfaceNumber);
    await usb.close();
  }
}
