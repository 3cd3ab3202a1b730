// sandbox.js: what a sandboxed iframe may not do here, found out before it fails silently, and
// the two ways around it: copying text (the clipboard, else a selected field) and opening a link
// in a new window (window.open, whose null says popups are refused).
//
//   frameSandbox()            // { framed, downloads, popups }: true, false, or null (cannot tell)
//   await copyText(text, field)  // true: copied; false: field selected, for the person to copy
//   openWindow(href)          // true: a window opened; false: the browser refused (no allow-popups)
//
// A browser refuses downloads in an iframe whose sandbox attribute lacks allow-downloads, and new
// windows (target=_blank, window.open) without allow-popups, with nothing but a console line. A
// frame can read its own sandbox attribute only when its parent is of its origin; in a
// cross-origin (or opaque-origin, sandboxed without allow-same-origin) frame no API says which
// flags are set: downloads are then null (try, and say what to do if nothing arrived), while
// popups are found out by trying (openWindow). Deliberately holds no DOM of its own and no strings.

/**
 * What this document may do: { framed, downloads, popups }, each flag true (allowed), false
 * (refused: a same-origin parent's iframe sandbox attribute lacks it) or null (a sandboxed,
 * opaque-origin frame: cannot tell). Top-level documents and unsandboxed frames: all true.
 * @param {Window} [win]
 */
export function frameSandbox(win = window) {
  let framed = true;
  try {
    framed = win.top !== win.self;
  } catch {
    // a cross-origin top: framed
  }
  if (!framed) return { framed, downloads: true, popups: true };
  let frame = null;
  try {
    frame = win.frameElement; // null from another origin
  } catch {
    frame = null;
  }
  if (frame && 'sandbox' in frame) {
    if (!frame.hasAttribute('sandbox')) return { framed, downloads: true, popups: true };
    const flags = /** @type {HTMLIFrameElement} */ (frame).sandbox;
    return {
      framed,
      downloads: flags.contains('allow-downloads'),
      popups: flags.contains('allow-popups'),
    };
  }
  // An opaque origin on an http(s) page: sandboxed without allow-same-origin; its flags unknown.
  const opaque = win.origin === 'null' && /^https?:$/.test(win.location.protocol);
  return { framed, downloads: opaque ? null : true, popups: opaque ? null : true };
}

/**
 * Copy text: the async clipboard (which a cross-origin iframe has only when its parent allows
 * clipboard-write), else the field (a textarea or input holding text) selected and
 * document.execCommand('copy'). Resolves to true when copied; false leaves the field selected and
 * focused, for the person to copy with the keyboard or menu.
 * @param {string} text @param {HTMLInputElement | HTMLTextAreaElement} field
 */
export async function copyText(text, field) {
  if (clipboardAllowed()) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // no clipboard API here, or refused: select and copy
    }
  }
  field.focus();
  field.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  }
}

/**
 * Open href in a new window, without giving it this window (opener set to null); false when the
 * browser refused to open one (a sandbox without allow-popups, a popup blocker).
 * @param {string} href
 */
/** False where the permissions policy refuses the async clipboard (Chromium says: a cross-origin
 * iframe has clipboard-write only if its parent allows it), so asking would only log an error. */
export function clipboardAllowed() {
  return /** @type {any} */ (document).featurePolicy?.allowsFeature?.('clipboard-write') !== false;
}

export function openWindow(href) {
  const win = window.open(href, '_blank');
  if (!win) return false;
  try {
    win.opener = null;
  } catch {
    // another origin already: it cannot reach this window's document either
  }
  return true;
}
