// Copying and sharing the referral link with the browser's own means.

/** Copies `text`: the Clipboard API where allowed, else a selected hidden field and execCommand. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* denied or not a secure context: try the old way */
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

export const canShare = () => typeof navigator !== 'undefined' && typeof navigator.share === 'function';

/** Opens the system share sheet; false when the player closed it or sharing is unavailable. */
export async function shareLink(url: string, title: string, text: string): Promise<boolean> {
  if (!canShare()) return false;
  try {
    await navigator.share({ url, title, text });
    return true;
  } catch {
    return false;
  }
}
