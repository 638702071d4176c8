/** A document's pictures decoded and its fonts loaded: what a printer (or a capture) must wait for. */
export async function documentReady(element: HTMLElement): Promise<void> {
  await Promise.all(
    [...element.querySelectorAll('img')].map((img) => (img.complete ? null : img.decode().catch(() => null))),
  );
  await (document as Document & { fonts?: { ready: Promise<unknown> } }).fonts?.ready;
}
