/** The tab's icon: the settings' favicon, else the bundled mark. */
export function setFavicon(href: string): void {
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.append(link);
  }
  link.removeAttribute('type');
  link.href = href;
}
